/**
 * Issue 14 item 10: every field `profiles list --all` prints is the service's
 * value, or absent (with the reason in --help); never a made-up null. And the
 * stub never writes a time in the future.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningStub } from '../../src/stub/index.js';
import { startStub } from '../helpers/stub.js';
import { runCli } from '../helpers/cli.js';

let dir: string;
let stub: RunningStub;
let env: Record<string, string>;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'jobfit-profiles-'));
  const data = join(dir, 'stub');
  // Past the service's 50-item cap: the rest are found through the test takers.
  const seed = await runCli(['stub', 'seed', '--data', data, '--test-takers', '150', '--complete', '1'], { configDir: join(dir, 'c') });
  expect(seed.code, seed.stderr).toBe(0);
  stub = (await startStub({ dataDir: data })).server!;
  env = { JOBFIT_BASE_URL: stub.url, JOBFIT_API_KEY: stub.keys[0].live_key };
}, 60_000);
afterAll(async () => {
  await stub?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('10. profiles list --all prints the service\'s values or leaves a field out', () => {
  it('no created_at: null; the service\'s own items keep theirs', async () => {
    const page = JSON.parse((await runCli(['profiles', 'list', '-o', 'json'], { env })).stdout);
    expect(page.has_more).toBe(true);
    const served = new Map((page.data as Array<{ id: string }>).map((p) => [p.id, p]));

    const all = await runCli(['profiles', 'list', '--all', '-o', 'json'], { env });
    expect(all.code, all.stderr).toBe(0);
    const items = JSON.parse(all.stdout).data as Array<Record<string, unknown>>;
    expect(items.length).toBe(page.total_count);
    expect(items.length).toBeGreaterThan(served.size);
    for (const it of items) {
      expect(it.created_at, String(it.id)).not.toBeNull();
      if (served.has(it.id as string)) expect(it).toEqual(served.get(it.id as string));
      else expect(it).not.toHaveProperty('created_at');
      expect(typeof it.test_taker_id).toBe('number');
    }

    // CSV: one fixed header; the cell is empty where the field is absent, with no warning.
    const csv = await runCli(['profiles', 'list', '--all', '-o', 'csv'], { env });
    expect(csv.stdout.split('\n')[0]).toBe('id,test_taker_id,custom_id,person_id,career_navigation_url,created_at');
    expect(csv.stderr).not.toContain('Warning');

    const help = await runCli(['profiles', 'list', '--help'], { env });
    expect(help.stdout).toMatch(/those items have no created_at/);
  }, 60_000);

  it('the stub never writes a time in the future', () => {
    const now = new Date().toISOString();
    const future = stub.store.get<{ n: number }>(
      `SELECT (SELECT COUNT(*) FROM invitations WHERE created_at > ? OR accepted_at > ?) +
              (SELECT COUNT(*) FROM assigned_assessments WHERE completed_at > ?) +
              (SELECT COUNT(*) FROM career_navigation_profiles WHERE created_at > ?) AS n`,
      now,
      now,
      now,
      now,
    )!.n;
    expect(future).toBe(0);
  });
});

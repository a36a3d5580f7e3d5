import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { run } from '../../src/cli/main.js';
import { runCli } from '../helpers/cli.js';
import { memoryIO } from '../helpers/io.js';
import { until } from '../helpers/until.js';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'jobfit-stubcmd-'));
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

const stub = (...args: string[]) => runCli(['stub', ...args], { configDir: dir });

describe('jobfit stub commands', () => {
  it('webhooks --retry-schedule with a delay it cannot read: exit 2 and the sentence, not "a bug"', async () => {
    const r = await stub('webhooks', '--retry-schedule', 'nope');
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^Error: Invalid retry delay "nope": use numbers with ms, s or m, e\.g\. 1s,2s,4s\.$/m);
    expect(r.stderr).not.toMatch(/bug/);
  });

  it('keys -o json: an array of account_id, display_name, live_key, test_key', async () => {
    const r = await stub('keys', '-o', 'json');
    expect(r.code).toBe(0);
    const keys = JSON.parse(r.stdout);
    expect(keys.length).toBeGreaterThanOrEqual(2);
    for (const k of keys) {
      expect(Object.keys(k)).toEqual(['account_id', 'display_name', 'live_key', 'test_key']);
      expect(k.live_key).toMatch(/^sk_live_[0-9a-f]{32}$/);
      expect(k.test_key).toMatch(/^sk_test_[0-9a-f]{32}$/);
    }
  });

  it('--data picks another directory; the default is <JOBFIT_CONFIG_DIR>/stub', async () => {
    const other = join(dir, 'elsewhere');
    expect((await stub('keys', '--data', other, '-o', 'json')).code).toBe(0);
    const { existsSync } = await import('node:fs');
    expect(existsSync(join(other, 'stub.db'))).toBe(true);
    expect(existsSync(join(dir, 'stub', 'stub.db'))).toBe(true);
  });

  it('accept, complete, outbox, events, reset', async () => {
    const { openStore } = await import('../../src/stub/index.js');
    const store = await openStore(join(dir, 'stub'));
    const pending = store.get<{ id: number }>('SELECT id FROM invitations WHERE accepted_at IS NULL AND invited_by_user_id = 1001 ORDER BY id LIMIT 1')!.id;
    store.close();
    const a = await stub('accept', String(pending), '-o', 'json');
    expect(a.code).toBe(0);
    const tt = JSON.parse(a.stdout).test_taker_id;
    const c = await stub('complete', String(tt), '--language', 'de');
    expect(c.code).toBe(0);
    expect(c.stdout).toMatch(/Every assigned assessment is complete/);
    const ev = await stub('events', '-o', 'json');
    const types = JSON.parse(ev.stdout).map((e: any) => e.type);
    expect(types.slice(0, 2)).toEqual(['invitation.accepted', 'test_taker.created']);
    expect(types).toContain('test_taker.assessment_completed');
    const ob = await stub('outbox', '-o', 'json');
    expect(JSON.parse(ob.stdout).some((m: any) => m.kind === 'completion')).toBe(true);
    const bad = await stub('complete', String(tt), '--assessment', 'painting');
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--assessment must be one of/);
    expect((await stub('reset')).code).toBe(0);
    expect(JSON.parse((await stub('events', '-o', 'json')).stdout)).toEqual([]);
  });

  it('seed adds test takers fast', async () => {
    const r = await stub('seed', '--test-takers', '2000', '--teams', '2', '--complete', '0.25');
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/Added 2000 test takers \(\d+ complete\) to account 1 across 2 team\(s\)/);
    expect((await stub('seed', '--test-takers', '10', '--complete', '2')).code).toBe(2);
  });

  it('every stub command has --help with an example', async () => {
    for (const c of ['serve', 'keys', 'reset', 'seed', 'accept', 'complete', 'outbox', 'events']) {
      const r = await stub(c, '--help');
      expect(r.code, c).toBe(0);
      expect(r.stdout, c).toMatch(/Examples:\n {2}\$ jobfit stub/);
      expect(r.stdout, c).toContain('--data');
    }
  });

  it('serve prints the URL and keys and stops on abort', async () => {
    const ac = new AbortController();
    const m = memoryIO({ env: { JOBFIT_CONFIG_DIR: dir }, signal: ac.signal });
    const running = run(['stub', 'serve', '--port', '0'], m.io);
    // Wait for the server to write its line, then stop it.
    await until(() => /live key: \S+\n/.test(m.stdout()), 'stub serve to print its URL and keys');
    ac.abort();
    const r = { code: await running, stdout: m.stdout() };
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^Stub listening on http:\/\/127\.0\.0\.1:\d+\/v2\n/);
    expect(r.stdout).toMatch(/live key: sk_live_[0-9a-f]{32}/);
  });
});

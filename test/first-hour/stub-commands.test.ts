/**
 * Issue 14, "Wording and small things": the stub as a person meets it: the
 * participant page's wording, `stub outbox`'s --limit and --since, and
 * `stub reset` asking first on a terminal.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStub } from '../helpers/stub.js';
import { runCli } from '../helpers/cli.js';
import { keys, spawnJobfitPty } from '../helpers/pty.js';
import { DANA } from '../helpers/seeded.js';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'jobfit-small-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the stub as a person meets it', () => {
  it('the participant page says "invited by", not "invited from"', async () => {
    const stub = await startStub({ dataDir: join(dir, 'page') });
    let html: string;
    try {
      const inv = stub.server!.store.get<{ token: string }>('SELECT token FROM invitations WHERE accepted_at IS NULL AND invited_by_user_id IS NOT NULL ORDER BY id LIMIT 1')!;
      html = await (await fetch(`${stub.server!.origin}/take/${inv.token}`)).text();
    } finally {
      await stub.stop();
    }
    expect(html).toMatch(/You have been invited by [A-Z]/);
    expect(html).not.toContain('invited from');
  });

  it('stub outbox takes --limit and --since', async () => {
    const configDir = join(dir, 'outbox');
    for (let i = 0; i < 4; i++) {
      const r = await runCli(['invite', '--first-name', 'Mo', '--last-name', `Box${i}`, '--email', `mo.box${i}@example.com`, '--created-by', DANA, '--send-via', 'email'], { configDir });
      expect(r.code, r.stderr).toBe(0);
    }
    const all = JSON.parse((await runCli(['stub', 'outbox', '-o', 'json'], { configDir })).stdout) as Array<{ id: number; created_at: string }>;
    expect(all.length).toBeGreaterThan(3);
    const newest = JSON.parse((await runCli(['stub', 'outbox', '--limit', '2', '-o', 'json'], { configDir })).stdout) as typeof all;
    expect(newest.map((m) => m.id)).toEqual(all.slice(-2).map((m) => m.id));
    const since = all[all.length - 3].created_at;
    const after = JSON.parse((await runCli(['stub', 'outbox', '--since', since, '-o', 'json'], { configDir })).stdout) as typeof all;
    expect(after.map((m) => m.id)).toEqual(all.filter((m) => m.created_at >= since).map((m) => m.id));
    expect(JSON.parse((await runCli(['stub', 'outbox', '--since', '0s', '-o', 'json'], { configDir })).stdout)).toEqual([]);
    expect((await runCli(['stub', 'outbox', '--since', 'yesterday'], { configDir })).code).toBe(2);
  });

  it('stub reset asks first on a terminal; no is no', async () => {
    const configDir = join(dir, 'reset');
    await runCli(['stub', 'keys'], { configDir });
    const term = spawnJobfitPty(['stub', 'reset'], { env: { JOBFIT_CONFIG_DIR: configDir } });
    try {
      await term.expect('Restore the stub data in', 30_000);
      term.send('n');
      term.send(keys.enter);
      const { code, output } = await term.wait(20_000);
      expect(code).toBe(0);
      expect(output).toContain('Nothing was changed.');
      expect(output).not.toContain('restored to the seed');
    } finally {
      term.kill();
    }
    // Scripts (no terminal) are never asked.
    const piped = await runCli(['stub', 'reset'], { configDir });
    expect(piped.code).toBe(0);
    expect(piped.stderr).toContain('Stub data restored to the seed.');
  }, 60_000);
});

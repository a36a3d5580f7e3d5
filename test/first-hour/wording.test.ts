/**
 * Issue 14, "Wording and small things", each as a person or a script meets it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProgress } from '../../src/format/progress.js';
import { startStub } from '../helpers/stub.js';
import { runCli } from '../helpers/cli.js';
import { memoryIO } from '../helpers/io.js';
import { keys, spawnJobfitPty } from '../helpers/pty.js';
import { DANA } from '../helpers/seeded.js';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'jobfit-small-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('wording and small things', () => {
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

  it('the progress line groups every number the same way', () => {
    const m = memoryIO({ tty: true, columns: 120 });
    let t = 0;
    const p = createProgress({ io: m.io, globals: { color: false, quiet: false, verbose: false } }, { total: 3130, noun: 'rows', clock: () => (t += 10) });
    p.tick({ n: 1592 });
    p.stop();
    expect(m.stderr()).toContain('1,592/3,130');
    expect(m.stderr()).not.toMatch(/\b1592\b/);
  });

  it('JOBFIT_NO_PROMPT on a terminal is named as the reason, not "no terminal"', async () => {
    const r = await runCli(['login'], { configDir: join(dir, 'np'), tty: true, env: { JOBFIT_NO_PROMPT: '1' } });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('Error: No API key given and prompts are off: JOBFIT_NO_PROMPT is set.');
    const piped = await runCli(['login'], { configDir: join(dir, 'np') });
    expect(piped.stderr).toContain('Error: No API key given and no terminal to ask on.');
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

  it('jobfit users shows which defaults each user lacks', async () => {
    const r = await runCli(['users'], { configDir: join(dir, 'users'), tty: true, columns: 250 });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('LACKS (INVITE NEEDS)');
    expect(r.stdout).toMatch(/ingrid\.halvorsen@northwind-talent\.example.*team \(--team\)/);
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

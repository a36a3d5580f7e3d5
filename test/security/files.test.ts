/**
 * People's data stays the owner's: the first `jobfit teams` of a fresh HOME
 * (the embedded stub) leaves its database 0600 in a 0700 folder, and the
 * database's -wal and -shm files are 0600 while it runs; a config others can
 * write is refused (issue 26: before any key is sent).
 */
import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BuiltCli, buildCli } from '../e2e/built.js';
import { startStub } from '../helpers/stub.js';
import { runCli } from '../helpers/cli.js';

const mode = (p: string) => (statSync(p).mode & 0o777).toString(8);

let cli: BuiltCli;
let tmp: string;
let umask: number;
beforeAll(() => {
  umask = process.umask(0o022);
  cli = buildCli();
  tmp = mkdtempSync(join(tmpdir(), 'jobfit-files-'));
}, 120_000);
afterAll(() => {
  process.umask(umask);
  cli?.close();
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

describe('files with people\'s data', () => {
  it('a fresh HOME: the first `jobfit teams` leaves stub.db 0600 in a 0700 folder (umask 022)', () => {
    const home = join(tmp, 'home');
    mkdirSync(home);
    const r = cli.run(['teams', '-o', 'json'], { env: { HOME: home } });
    expect(r.code, r.stderr).toBe(0);
    const dir = join(home, '.config', 'jobfit');
    expect(mode(dir)).toBe('700');
    expect(mode(join(dir, 'stub'))).toBe('700');
    expect(mode(join(dir, 'stub', 'stub.db'))).toBe('600');
    for (const side of ['-wal', '-shm']) {
      const p = join(dir, 'stub', `stub.db${side}`);
      if (existsSync(p)) expect(mode(p)).toBe('600');
    }
  });

  it('the database\'s -wal and -shm are 0600 while the stub runs, and an old 0644 database is tightened', async () => {
    const data = join(tmp, 'stub-data');
    mkdirSync(data);
    writeFileSync(join(data, 'stub.db'), '');
    chmodSync(join(data, 'stub.db'), 0o644);
    const stub = await startStub({ dataDir: data });
    try {
      const res = await fetch(`${stub.url}/teams`, { headers: { authorization: `Bearer ${stub.keys[0].live_key}` } });
      expect(res.status).toBe(200);
      for (const f of ['stub.db', 'stub.db-wal', 'stub.db-shm']) expect([f, mode(join(data, f))]).toEqual([f, '600']);
    } finally {
      await stub.stop();
    }
  });

  it('a config file others can write, or in a folder others can write, is refused with the fix (exit 2)', async () => {
    const configDir = join(tmp, 'config');
    mkdirSync(configDir, { mode: 0o700 });
    const file = join(configDir, 'config.json');
    writeFileSync(file, JSON.stringify({ current_profile: 'w', profiles: { w: { base_url: 'http://127.0.0.1:9/v2', test_key: 'sk_test_abcdefabcdefabcdef1234' } } }));
    chmodSync(file, 0o666);
    const r = await runCli(['health'], { configDir, env: { JOBFIT_TIMEOUT: '2', JOBFIT_MAX_RETRIES: '0' } });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/Error: The config file .*config\.json can be changed by anyone on this machine \(mode 666\): it is not used\. Run `chmod 600 /);
    chmodSync(file, 0o600);
    chmodSync(configDir, 0o777);
    const folder = await runCli(['health'], { configDir, env: { JOBFIT_TIMEOUT: '2', JOBFIT_MAX_RETRIES: '0' } });
    expect(folder.code).toBe(2);
    expect(folder.stderr).toMatch(/Error: The folder .* of the config file can be changed by anyone on this machine \(mode 777\), so it could be replaced: it is not used\. Run `chmod 700 /);
    chmodSync(configDir, 0o700);
    const quiet = await runCli(['health'], { configDir, env: { JOBFIT_TIMEOUT: '2', JOBFIT_MAX_RETRIES: '0' } });
    expect(quiet.stderr).not.toMatch(/can be changed by/);
  });
});

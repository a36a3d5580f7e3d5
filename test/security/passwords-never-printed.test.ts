/**
 * Issue 42, "safe with a stranger's data, round three": the findings fixed
 * in place here, each with the probe's reproduction (the HTML payloads are in
 * html-payloads.test.ts, the bounds and side files where they were fixed).
 */
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hideUrlPasswords } from '../../src/config/mask.js';
import { redactUrl } from '../../src/sync/postgres.js';
import { runCli } from '../helpers/cli.js';
import { type RefusedPort, refusedPort } from '../helpers/refused-port.js';

let tmp: string;
beforeAll(() => {
  tmp = mkdtempSync(join(tmpdir(), 'jobfit-round-three-'));
});
afterAll(() => {
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

describe('a password in a URL or a DSN is never printed', () => {
  it('hideUrlPasswords: userinfo (an @ in the password too), password, sslpassword, any *password* parameter, key=value', () => {
    expect(hideUrlPasswords('https://user:pw@host/v2')).toBe('https://user:***@host/v2');
    expect(hideUrlPasswords('see https://user:p@ss@host/v2 now')).toBe('see https://user:***@host/v2 now');
    expect(hideUrlPasswords('postgres://u@h/db?password=pw&sslmode=require')).toBe('postgres://u@h/db?password=***&sslmode=require');
    expect(hideUrlPasswords('postgres://u@h/db?sslmode=require&sslpassword=pw')).toBe('postgres://u@h/db?sslmode=require&sslpassword=***');
    expect(hideUrlPasswords('postgres://u@h/db?db_password_file_x=pw')).toBe('postgres://u@h/db?db_password_file_x=***');
    expect(hideUrlPasswords("host=h user=u password='p w' dbname=d")).toBe('host=h user=u password=*** dbname=d');
    expect(hideUrlPasswords('nothing secret at https://host/v2')).toBe('nothing secret at https://host/v2');
    expect(redactUrl('postgres://u:pw@h/db?password=pw2&sslpassword=pw3&sslmode=require')).toBe('postgres://u:***@h/db?password=***&sslpassword=***&sslmode=require');
  });

  it('config list and config get show a base URL\'s password as *** (table and json)', async () => {
    const configDir = mkdtempSync(join(tmp, 'config-'));
    const set = await runCli(['config', 'set', 'base_url', 'https://user:s3cret-pw@api.example.com/v2'], { configDir });
    expect(set.code, set.stderr).toBe(0);
    for (const argv of [['config', 'list'], ['config', 'list', '-o', 'json'], ['config', 'get', 'base_url']]) {
      const r = await runCli(argv, { configDir });
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout + r.stderr).not.toContain('s3cret-pw');
      expect(r.stdout).toContain('user:***@api.example.com');
    }
  });

  describe('sync --db', () => {
    let refused: RefusedPort;
    beforeAll(async () => {
      refused = await refusedPort();
    });
    afterAll(async () => {
      await refused?.close();
    });

    it.each([
      ['password', 'postgres://u@127.0.0.1:PORT/db?password=s3cret-pw'],
      ['sslpassword', 'postgres://u@127.0.0.1:PORT/db?sslmode=disable&sslpassword=s3cret-pw'],
      ['userinfo', 'postgres://u:s3cret-pw@127.0.0.1:PORT/db'],
    ])("a URL's %s is not in its error", async (_what, url) => {
      const r = await runCli(['sync', '--db', url.replace('PORT', String(refused.port))]);
      expect(r.code).not.toBe(0);
      expect(r.stderr).toMatch(/127\.0\.0\.1/);
      expect(r.stdout + r.stderr).not.toContain('s3cret-pw');
    }, 60_000);

    it('a key=value DSN is refused with the forms it takes, and no SQLite file named with the password is made', async () => {
      const cwd = mkdtempSync(join(tmp, 'cwd-'));
      const before = process.cwd();
      process.chdir(cwd);
      try {
        const r = await runCli(['sync', '--db', 'host=h user=u password=s3cret-pw dbname=d']);
        expect(r.code).toBe(2);
        expect(r.stderr).toMatch(/--db takes a PostgreSQL URL \(postgres:\/\/.*\) or a SQLite file path/);
        expect(r.stdout + r.stderr).not.toContain('s3cret-pw');
      } finally {
        process.chdir(before);
      }
      expect(readdirSync(cwd)).toEqual([]);
      expect(existsSync(join(cwd, 'host=h user=u password=s3cret-pw dbname=d'))).toBe(false);
    });
  });
});

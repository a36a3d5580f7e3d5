/**
 * Issue 14, "Setup and connection": what a new user meets in the first minutes,
 * run in-process against the embedded stub or a stub on a loopback port.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { run } from '../../src/cli/main.js';
import { runCli } from '../helpers/cli.js';
import { memoryIO } from '../helpers/io.js';
import { until } from '../webhook/helpers.js';
import { type StubEnv, startStubEnv } from '../commands/stub-env.js';
import { DANA } from '../helpers/seeded.js';

let env: StubEnv;
const dirs: string[] = [];
const fresh = () => {
  const d = mkdtempSync(join(tmpdir(), 'jobfit-first-hour-'));
  dirs.push(d);
  return d;
};
beforeAll(async () => {
  env = await startStubEnv();
});
afterAll(async () => {
  await env?.close();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe('1. invite defaults before any login', () => {
  it('config set invite_defaults.created_by keeps the embedded stub, and invites use the default', async () => {
    const configDir = fresh();
    const users = JSON.parse((await runCli(['users', '-o', 'json'], { configDir })).stdout).data as Array<{ email: string; default_team: unknown }>;
    // Not the first user: the default must be what picks the inviter.
    const inviter = users.filter((u) => u.default_team)[1].email;
    expect((await runCli(['config', 'set', 'invite_defaults.created_by', inviter], { configDir })).code).toBe(0);

    const who = await runCli(['whoami', '-o', 'json'], { configDir });
    expect(who.code, who.stderr).toBe(0);
    expect(JSON.parse(who.stdout)).toMatchObject({ embedded_stub: true, profile: 'default', mode: 'live' });
    expect(who.stderr).toContain('embedded local stub');

    const inv = await runCli(['invite', '--first-name', 'Ada', '--last-name', 'Lovelace', '--email', 'ada.first-hour@example.com', '--send-via', 'none', '-o', 'json'], { configDir });
    expect(inv.code, inv.stderr).toBe(0);
    expect(JSON.parse(inv.stdout).invited_by_user.email).toBe(inviter);

    expect((await runCli(['config', 'unset', 'invite_defaults.created_by'], { configDir })).code).toBe(0);
    expect((await runCli(['whoami', '-o', 'json'], { configDir })).code).toBe(0);
  });

  it('a profile with a base URL and no key names the live key, the default mode', async () => {
    const configDir = fresh();
    await runCli(['config', 'set', 'base_url', env.stub.url], { configDir });
    const r = await runCli(['whoami'], { configDir });
    expect(r.code).toBe(4);
    expect(r.stderr).toMatch(/^Error: Profile "default" has no API key\.$/m);
    expect(r.stderr).toContain('config set live_key');
  });
});

describe('2. login checks the base URL before any key goes to it', () => {
  it('a URL without /v2 is named as such, with the fix, and nothing is saved', async () => {
    const configDir = fresh();
    const r = await runCli(['login', '--base-url', env.stub.origin], { configDir, env: { JOBFIT_API_KEY: env.live } });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`Error: ${env.stub.origin} is not the root of the v2 API: its /healthcheck answered 404; ${env.stub.url} is.`);
    expect(r.stderr).toContain(`Hint: run it again with --base-url ${env.stub.url}`);
    expect(r.stderr).not.toContain('refused');
    expect((await runCli(['config', 'list', '-o', 'json'], { configDir })).stdout).not.toContain('base_url');
  });

  it('a URL where nothing answers is a failure (1), not a refused key', async () => {
    const configDir = fresh();
    const r = await runCli(['login', '--base-url', 'http://127.0.0.1:9/v2'], { configDir, env: { JOBFIT_API_KEY: env.live, JOBFIT_MAX_RETRIES: '0' } });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^Error: Nothing at http:\/\/127\.0\.0\.1:9\/v2 answered: /m);
  });

  it('the right URL logs in', async () => {
    const configDir = fresh();
    const r = await runCli(['login', '--base-url', env.stub.url], { configDir, env: { JOBFIT_API_KEY: env.live } });
    expect(r.code, r.stderr).toBe(0);
  });
});

describe('3. a key the service refuses', () => {
  it('says which key, from where, and what the service answered', async () => {
    const bad = 'sk_live_notarealkeynotarealkey42';
    const r = await runCli(['teams'], { configDir: fresh(), env: { JOBFIT_BASE_URL: env.stub.url, JOBFIT_API_KEY: bad } });
    expect(r.code).toBe(4);
    expect(r.stderr).toContain(`Error: ${env.stub.url} did not accept the live key sk_live_…ey42 from JOBFIT_API_KEY (it answered 404: API key is required).`);
    expect(r.stderr).toContain('Hint: check the key in JOBFIT_API_KEY');
    expect(r.stderr).not.toContain('set JOBFIT_API_KEY');
    expect(r.stderr).not.toContain(bad);
  });

  it('from a profile: names the profile', async () => {
    const configDir = fresh();
    await runCli(['config', 'set', 'base_url', env.stub.url], { configDir });
    await runCli(['config', 'set', 'test_key', 'sk_test_notarealkeynotarealkey42'], { configDir });
    const r = await runCli(['teams'], { configDir });
    expect(r.code).toBe(4);
    expect(r.stderr).toContain('key sk_test_…ey42 from profile "default"');
    expect(r.stderr).toContain('Hint: run `jobfit login` to replace the key');
  });
});

describe('4. assessment_url links of the embedded stub', () => {
  it('says plainly when nothing serves them and how to open them; with stub serve running, they open', async () => {
    const configDir = fresh();
    const inviter = DANA;
    const invite = (email: string) =>
      runCli(['invite', '--first-name', 'Ada', '--last-name', 'Links', '--email', email, '--created-by', inviter, '--send-via', 'none', '-o', 'json'], { configDir });
    const first = await invite('ada.links.1@example.com');
    expect(first.code, first.stderr).toBe(0);
    expect(JSON.parse(first.stdout).assessment_url).toMatch(/^http:\/\/127\.0\.0\.1:4010\/take\//);
    // (Unless something on this machine serves port 4010 right now.)
    const busy = await fetch('http://127.0.0.1:4010/v2/healthcheck').then((r) => r.ok, () => false);
    if (!busy) {
      const id = String(JSON.parse(first.stdout).id);
      const get = await runCli(['invitations', 'get', id, '-o', 'json'], { configDir });
      expect(get.stderr).toContain('no stub is serving now: run `jobfit stub serve --port 4010`');
      expect(first.stderr).toContain(
        'The assessment_url links point at http://127.0.0.1:4010, where no stub is serving now: run `jobfit stub serve --port 4010` in another terminal to open them in a browser.',
      );
    }

    // `stub serve` on the same data: links handed out from then on point at it, and open.
    const ac = new AbortController();
    const m = memoryIO({ env: { JOBFIT_CONFIG_DIR: configDir }, signal: ac.signal });
    const serving = run(['stub', 'serve', '--port', '0'], m.io);
    try {
      const url = await until(() => /Stub listening on (\S+)\/v2/.exec(m.stdout())?.[1], 'the stub URL');
      const second = await invite('ada.links.2@example.com');
      expect(second.code, second.stderr).toBe(0);
      const link = JSON.parse(second.stdout).assessment_url as string;
      expect(link.startsWith(`${url}/take/`)).toBe(true);
      expect(second.stderr).not.toContain('no stub is serving');
      const page = await fetch(link);
      expect(page.status).toBe(200);
      expect(await page.text()).toContain('Ada');
    } finally {
      ac.abort();
      expect(await serving).toBe(0);
    }
  });
});

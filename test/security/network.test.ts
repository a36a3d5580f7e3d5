/**
 * The key stays on its origin, and what is printed about where it goes never
 * shows a password: a test key over plain http off this machine gets a
 * warning; `user:pass@` in a base URL is printed without the password (errors,
 * banners, whoami); `api` fails on a redirect it does not follow; `stub
 * serve` says what it really bound and warns beyond loopback; loopback means
 * localhost, 127/8 and ::1 only.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertSafeTransport } from '../../src/client/http.js';
import { isLoopbackHost } from '../../src/core/loopback.js';
import { hideUrlPasswords } from '../../src/config/mask.js';
import { runCli } from '../helpers/cli.js';
import { type FaultServer, send, startFaultServer } from '../helpers/fault-server.js';

const TEST_KEY = 'sk_test_networknetwork0000beef';

let server: FaultServer;
let port: number;
const seen: string[] = [];
beforeAll(async () => {
  server = await startFaultServer({ anyKey: true });
  server.faults.push((req, res) => {
    seen.push(`${req.method} ${req.url} ${req.headers.authorization ?? ''}`);
    if (req.url.startsWith('/v2/moved')) {
      res.writeHead(302, { location: 'https://elsewhere.example/v2/teams' }).end();
      return true;
    }
    return send(res, 200, { mode: 'test', object: 'account', id: 1, display_name: 'Acme' });
  });
  port = server.port;
});
afterAll(async () => {
  await server.close();
});

describe('where the key goes, and what is printed about it', () => {
  it('loopback is localhost, 127.0.0.0/8 and ::1; not *.localhost', () => {
    for (const h of ['localhost', 'LOCALHOST', '127.0.0.1', '127.1.2.3', '::1', '[::1]']) expect([h, isLoopbackHost(h)]).toEqual([h, true]);
    for (const h of ['app.localhost', 'localhost.example', '127.0.0.1.example', '128.0.0.1', '0.0.0.0', '[::]', '127.0.0.256']) expect([h, isLoopbackHost(h)]).toEqual([h, false]);
    // So a live key over plain http to a *.localhost name is refused, as to any other host.
    expect(() => assertSafeTransport('http://app.localhost:8080/v2', 'sk_live_aaaaaaaaaaaaaaaaaaaa1234')).toThrow(/Refusing to send a live key over plain http:\/\/ to app\.localhost:8080/);
    expect(() => assertSafeTransport('http://127.0.0.1:8080/v2', 'sk_live_aaaaaaaaaaaaaaaaaaaa1234')).not.toThrow();
  });

  it('a test key over plain http off this machine gets a warning; on loopback it does not', async () => {
    const off = await runCli(['health'], { env: { JOBFIT_BASE_URL: 'http://service.invalid/v2', JOBFIT_API_KEY: TEST_KEY, JOBFIT_MAX_RETRIES: '0', JOBFIT_TIMEOUT: '2' } });
    expect(off.stderr).toMatch(/Warning: the test key goes over plain http:\/\/ to service\.invalid/);
    const local = await runCli(['whoami', '-o', 'json'], { env: { JOBFIT_BASE_URL: `http://127.0.0.1:${port}/v2`, JOBFIT_API_KEY: TEST_KEY } });
    expect(local.code, local.stderr).toBe(0);
    expect(local.stderr).not.toMatch(/plain http/);
  });

  it('never prints the password of a base URL: whoami, the -v trace, errors', async () => {
    const base = `http://ada:hunter2secret@127.0.0.1:${port}/v2`;
    const who = await runCli(['whoami', '-o', 'json', '-v'], { env: { JOBFIT_BASE_URL: base, JOBFIT_API_KEY: TEST_KEY } });
    expect(who.code, who.stderr).toBe(0);
    expect(JSON.parse(who.stdout).base_url).toBe(`http://ada:***@127.0.0.1:${port}/v2`);
    const dead = await runCli(['teams'], { env: { JOBFIT_BASE_URL: 'http://ada:hunter2secret@127.0.0.1:9/v2', JOBFIT_API_KEY: TEST_KEY, JOBFIT_MAX_RETRIES: '0' } });
    expect(dead.code).toBe(1);
    expect(dead.stderr).toContain('ada:***@127.0.0.1:9');
    for (const r of [who, dead]) expect(r.stdout + r.stderr).not.toContain('hunter2');
    expect(hideUrlPasswords('see https://u:p%40ss@h.example:8443/x and http://h/ and mailto:a@b')).toBe('see https://u:***@h.example:8443/x and http://h/ and mailto:a@b');
  });

  it('api: a redirect it does not follow is exit 1 with a sentence, and the key stays here', async () => {
    seen.length = 0;
    const r = await runCli(['api', 'GET', '/moved'], { env: { JOBFIT_BASE_URL: `http://127.0.0.1:${port}/v2`, JOBFIT_API_KEY: TEST_KEY } });
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^Error: The service answered GET \/moved with 302 to https:\/\/elsewhere\.example\/v2\/teams; the redirect was not followed\.\n/);
    expect(seen).toHaveLength(1);
  });

  it('stub serve on every interface says so and warns; on loopback it does not', async () => {
    for (const host of ['0.0.0.0', '127.0.0.1']) {
      const ac = new AbortController();
      const running = runCli(['stub', 'serve', '--port', '0', '--host', host], { signal: ac.signal });
      await new Promise((ok) => setTimeout(ok, 1200));
      ac.abort();
      const r = await running;
      expect(r.code, r.stderr).toBe(0);
      if (host === '0.0.0.0') {
        expect(r.stdout).toMatch(/^Stub listening on http:\/\/127\.0\.0\.1:\d+\/v2 \(bound to 0\.0\.0\.0:\d+, every interface\)\n/);
        expect(r.stderr).toMatch(/Warning: the stub is reachable beyond this machine \(0\.0\.0\.0:\d+\), and its keys are the published seed keys/);
      } else {
        expect(r.stdout).toMatch(/^Stub listening on http:\/\/127\.0\.0\.1:\d+\/v2\n/);
        expect(r.stderr).not.toMatch(/Warning/);
      }
    }
  });
});

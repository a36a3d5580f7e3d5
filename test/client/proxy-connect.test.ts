/**
 * Every retry loop has a bound, the proxy's CONNECT included (issue 42,
 * finding 4 / item 4). An HTTPS proxy that closes every CONNECT made jobfit
 * connect again about 3,100 times a second, without end and deaf to Ctrl-C:
 * undici's client takes a socket error while connecting for one it may
 * retry at once, with the request still queued. Now the attempt fails like
 * any connection that did not open, and the client's own retries decide:
 * the same attempt budget and breaker as a direct connection, so it ends
 * within the direct case's time, and Ctrl-C ends it at once.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InterruptError } from '../../src/core/errors.js';
import { runCli } from '../helpers/cli.js';
import { ROOT } from '../e2e/built.js';

const KEY = 'sk_test_abcdefabcdefabcdef1234';
let server: Server;
let port: number;
let connections = 0;
let tmp: string;

beforeAll(async () => {
  tmp = mkdtempSync(join(tmpdir(), 'jobfit-proxy-connect-'));
  // Not the fault server: it works on raw sockets, below any HTTP answer the fault server could give.
  // Takes every connection and closes it at its first bytes: a CONNECT, or a TLS hello.
  server = createServer((s: Socket) => {
    connections++;
    s.on('error', () => undefined);
    s.once('data', () => s.destroy());
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  port = (server.address() as { port: number }).port;
});
afterAll(async () => {
  await new Promise((ok) => server?.close(ok));
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

async function timedTeams(env: Record<string, string>, signal?: AbortSignal) {
  const before = connections;
  const t0 = performance.now();
  const r = await runCli(['teams'], { env: { JOBFIT_API_KEY: KEY, ...env }, signal });
  return { ...r, seconds: (performance.now() - t0) / 1000, connections: connections - before };
}

const viaProxy = () => ({ HTTPS_PROXY: `http://127.0.0.1:${port}`, JOBFIT_BASE_URL: 'https://api.example.com/v2' });

describe('an HTTPS proxy that closes every CONNECT', () => {
  it('ends with one sentence within the time of the same fault at the base URL, with the same number of attempts', async () => {
    const direct = await timedTeams({ JOBFIT_BASE_URL: `https://127.0.0.1:${port}/v2` });
    expect(direct.code).toBe(1);
    const proxied = await timedTeams(viaProxy());
    expect(proxied.code, proxied.stderr).toBe(1);
    expect(proxied.stderr).toMatch(/Could not reach https:\/\/api\.example\.com\/v2 \(the proxy \(HTTPS_PROXY\) closed the connection before the tunnel was open\)/);
    expect(proxied.stderr).not.toMatch(/bug in jobfit|\n\s+at /);
    expect(proxied.connections).toBe(direct.connections);
    expect(proxied.connections).toBeLessThanOrEqual(4);
    // Within the direct case's time (and a second of slack for a loaded machine).
    expect(proxied.seconds).toBeLessThan(direct.seconds + 1);
  }, 60_000);

  it('a proxy that answers the CONNECT with 403 is one sentence and exit 1 (it was taken for Ctrl-C: "Interrupted.", 130)', async () => {
    // Not the fault server: the raw answer to a CONNECT, before any HTTP exchange it could serve.
    const refusing = createServer((s: Socket) => {
      s.on('error', () => undefined);
      s.once('data', () => s.end('HTTP/1.1 403 Forbidden\r\nContent-Length: 0\r\n\r\n'));
    });
    await new Promise<void>((ok) => refusing.listen(0, '127.0.0.1', ok));
    try {
      const r = await runCli(['teams'], { env: { JOBFIT_API_KEY: KEY, HTTPS_PROXY: `http://127.0.0.1:${(refusing.address() as { port: number }).port}`, JOBFIT_BASE_URL: 'https://api.example.com/v2' } });
      expect(r.stderr).toContain('the proxy (HTTPS_PROXY) refused to open the tunnel');
      expect(r.code).toBe(1);
    } finally {
      await new Promise((ok) => refusing.close(ok));
    }
  }, 30_000);

  it('Ctrl-C ends it at once (130)', async () => {
    const ac = new AbortController();
    setTimeout(() => ac.abort(new InterruptError('SIGINT')), 700);
    const r = await timedTeams(viaProxy(), ac.signal);
    expect(r.code, r.stderr).toBe(130);
    expect(r.seconds).toBeLessThan(2);
  }, 30_000);

  it('the built jobfit (its slim undici) ends too, after the same attempts', async () => {
    const before = connections;
    const child = spawn(process.execPath, [join(ROOT, 'bin/jobfit.js'), 'teams'], {
      env: { PATH: process.env.PATH, HOME: tmp, JOBFIT_CONFIG_DIR: mkdtempSync(join(tmp, 'config-')), JOBFIT_API_KEY: KEY, ...viaProxy() },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (b: Buffer) => (stderr += b.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
    const code = await new Promise<number | null>((done) => child.on('exit', (c) => done(c)));
    clearTimeout(timer);
    expect(code, stderr).toBe(1);
    expect(stderr).toContain('the proxy (HTTPS_PROXY) closed the connection before the tunnel was open');
    expect(connections - before).toBeLessThanOrEqual(4);
  }, 30_000);
});

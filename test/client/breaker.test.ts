/**
 * The circuit breaker: pure decisions with an injected clock, then the client
 * against real sockets (a server answering 503 to everything, a closed port):
 * every in-flight and later request ends at once with ServiceGoneError.
 */
import { describe, expect, it } from 'vitest';
import { Breaker, breakerFromEnv } from '../../src/client/breaker.js';
import { ServiceGoneError } from '../../src/client/errors.js';
import { HttpClient } from '../../src/client/http.js';
import { refusedPort } from '../helpers/refused-port.js';
import { send as json, FOREIGN_KEY as KEY, startFaultServer } from '../helpers/fault-server.js';

describe('Breaker (pure)', () => {
  it('opens only when failures fill the window and number a few', () => {
    let t = 0;
    const b = new Breaker({ windowMs: 10_000, minFailures: 3 }, () => t);
    expect(b.failure('connection refused')).toBe(false);
    t = 11_000;
    expect(b.failure('connection refused')).toBe(false); // only two so far
    expect(b.failure('connection refused')).toBe(true);
    expect(b.isOpen).toBe(true);
    expect(b.signal.aborted).toBe(true);
    expect(b.trippedBy).toEqual({ cause: 'connection refused', seconds: 11, failures: 3 });
  });

  it('any answer from the service closes the window', () => {
    let t = 0;
    const b = new Breaker({ windowMs: 10_000, minFailures: 2 }, () => t);
    b.failure('HTTP 503');
    t = 9_000;
    b.success(); // a 429 or a 404 is an answer: the service is there
    t = 15_000;
    expect(b.failure('HTTP 503')).toBe(false);
    t = 24_000;
    expect(b.failure('HTTP 503')).toBe(false);
    t = 25_000;
    expect(b.failure('HTTP 503')).toBe(true);
  });

  it('reads JOBFIT_BREAKER_SECONDS (0: never)', () => {
    expect(breakerFromEnv({})).toBeUndefined();
    expect(breakerFromEnv({ JOBFIT_BREAKER_SECONDS: '2' })?.windowMs).toBe(2000);
    expect(breakerFromEnv({ JOBFIT_BREAKER_SECONDS: '0' })?.windowMs).toBe(Number.POSITIVE_INFINITY);
    expect(breakerFromEnv({ JOBFIT_BREAKER_SECONDS: 'soon' })).toBeUndefined();
  });
});

describe('HttpClient with the breaker', () => {
  it('a service answering 503 to everything: 16 requests in flight all end within the window, one sentence', async () => {
    const server = await startFaultServer({ world: 'foreign' });
    let hits = 0;
    const forEver = (_req: unknown, res: Parameters<typeof json>[0]) => {
      hits++;
      json(res, 503, { error: 'Service unavailable' });
    };
    server.queue('GET /v2/teams', ...Array.from({ length: 10_000 }, () => forEver));
    const http = new HttpClient({ baseUrl: server.url, apiKey: KEY, env: {}, retry: { maxRetries: 50, initialDelayMs: 50, maxDelayMs: 200 }, breaker: { windowMs: 600, minFailures: 4 } });
    const started = Date.now();
    const results = await Promise.allSettled(Array.from({ length: 16 }, () => http.request({ method: 'GET', path: '/teams' })));
    const took = Date.now() - started;
    expect(results.every((r) => r.status === 'rejected' && r.reason instanceof ServiceGoneError)).toBe(true);
    const err = (results[0] as PromiseRejectedResult).reason as ServiceGoneError;
    expect(err.message).toMatch(/^The service at http:\/\/127\.0\.0\.1:\d+\/v2 failed every request for \d+ s \(\d+ attempts, last: HTTP 503\); stopped\.$/);
    expect(err.exitCode).toBe(1);
    // 50 retries of 16 requests would take far longer; the breaker ends it soon after 600 ms.
    expect(took).toBeLessThan(5_000);
    const after = hits;
    await expect(http.request({ method: 'GET', path: '/teams' })).rejects.toBeInstanceOf(ServiceGoneError);
    expect(hits).toBe(after); // nothing more is sent once open
    await http.close();
    await server.close();
  });

  it('a closed port: the breaker ends a run that would retry for minutes', async () => {
    const closed = await refusedPort();
    const http = new HttpClient({ baseUrl: `http://127.0.0.1:${closed.port}/v2`, apiKey: KEY, env: {}, retry: { maxRetries: 1_000, initialDelayMs: 20, maxDelayMs: 100 }, breaker: { windowMs: 400, minFailures: 4 } });
    const err = await http.request({ method: 'GET', path: '/teams' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ServiceGoneError);
    expect((err as Error).message).toContain('last: connection refused');
    await http.close();
    await closed.close();
  });

  it('429s are answers: a busy service never opens the breaker', async () => {
    const server = await startFaultServer({ world: 'foreign' });
    const busy = (_req: unknown, res: Parameters<typeof json>[0]) => json(res, 429, { error: 'Too many requests' }, { 'retry-after': '0' });
    server.queue('GET /v2/teams', ...Array.from({ length: 6 }, () => busy));
    const http = new HttpClient({ baseUrl: server.url, apiKey: KEY, env: {}, retry: { maxRetries: 10, initialDelayMs: 60, maxDelayMs: 60 }, breaker: { windowMs: 100, minFailures: 2 } });
    const res = await http.request({ method: 'GET', path: '/teams' });
    expect(res.status).toBe(200);
    expect(http.breaker.isOpen).toBe(false);
    await http.close();
    await server.close();
  });
});

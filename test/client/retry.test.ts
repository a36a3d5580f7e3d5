import { describe, expect, it } from 'vitest';
import { backoffDelay, DEFAULT_RETRY, decideRetry, parseRetryAfter, type AttemptOutcome } from '../../src/client/retry.js';

const NOW = Date.parse('2030-01-01T00:00:00Z');
const opts = { ...DEFAULT_RETRY, maxRetries: 3, initialDelayMs: 500, maxDelayMs: 8000, maxRetryAfterMs: 60_000, maxRateLimitWaits: 6 };
const rnd = (v: number) => () => v;
const at = (o: Partial<AttemptOutcome>): AttemptOutcome => ({ method: 'GET', path: '/teams', retries: 0, nowMs: NOW, ...o });

describe('parseRetryAfter', () => {
  it('reads seconds and HTTP dates', () => {
    expect(parseRetryAfter('2', NOW)).toBe(2000);
    expect(parseRetryAfter('0.5', NOW)).toBe(500);
    expect(parseRetryAfter(new Date(NOW + 3000).toUTCString(), NOW)).toBe(3000);
    expect(parseRetryAfter(new Date(NOW - 3000).toUTCString(), NOW)).toBe(0);
    expect(parseRetryAfter('soon', NOW)).toBeUndefined();
    expect(parseRetryAfter(undefined, NOW)).toBeUndefined();
  });
});

describe('backoffDelay', () => {
  it('doubles up to the cap', () => {
    expect([0, 1, 2, 3, 4, 5, 6].map((r) => backoffDelay(r, opts, rnd(1)))).toEqual([500, 1000, 2000, 4000, 8000, 8000, 8000]);
  });
  it('jitters into the upper half and never goes below the floor', () => {
    expect(backoffDelay(3, opts, rnd(0))).toBe(2000);
    expect(backoffDelay(3, opts, rnd(0.5))).toBe(3000);
    expect(backoffDelay(0, opts, rnd(0))).toBe(500);
    for (let i = 0; i < 100; i++) {
      const d = backoffDelay(i % 8, opts, Math.random);
      expect(d).toBeGreaterThanOrEqual(500);
      expect(d).toBeLessThanOrEqual(8000);
    }
  });
});

describe('decideRetry', () => {
  it('retries GET and PUT on 429, 5xx and dropped connections', () => {
    for (const method of ['GET', 'PUT']) {
      expect(decideRetry(at({ method, status: 429 }), opts, rnd(1))).toMatchObject({ retry: true, delayMs: 500 });
      expect(decideRetry(at({ method, status: 500 }), opts, rnd(1))).toMatchObject({ retry: true });
      expect(decideRetry(at({ method, status: 503 }), opts, rnd(1))).toMatchObject({ retry: true });
      for (const errorCode of ['ECONNRESET', 'UND_ERR_SOCKET', 'ECONNREFUSED', 'UND_ERR_HEADERS_TIMEOUT']) {
        expect(decideRetry(at({ method, errorCode }), opts, rnd(1))).toMatchObject({ retry: true });
      }
    }
  });

  it('never retries other 4xx or unknown errors', () => {
    for (const status of [400, 401, 404, 405, 409, 422]) {
      expect(decideRetry(at({ status }), opts, rnd(1)).retry).toBe(false);
    }
    expect(decideRetry(at({ errorCode: 'CERT_HAS_EXPIRED' }), opts, rnd(1)).retry).toBe(false);
  });

  it('honours Retry-After as a minimum', () => {
    expect(decideRetry(at({ status: 429, retryAfter: '3' }), opts, rnd(1))).toEqual({ retry: true, delayMs: 3000, reason: '429, Retry-After', waited: true });
    const date = new Date(NOW + 5000).toUTCString();
    expect(decideRetry(at({ status: 429, retryAfter: date }), opts, rnd(1))).toMatchObject({ delayMs: 5000 });
    // Later waits: the backoff is larger than a small Retry-After.
    expect(decideRetry(at({ status: 429, retryAfter: '1', rateLimitWaits: 3 }), opts, rnd(1))).toMatchObject({ delayMs: 4000 });
  });

  it('waits out a 429 with Retry-After without using up maxRetries, up to maxRateLimitWaits times', () => {
    // Retries already spent on dropped connections do not stop a wait the server asked for.
    expect(decideRetry(at({ status: 429, retryAfter: '1', retries: 3 }), opts, rnd(1))).toEqual({ retry: true, delayMs: 1000, reason: '429, Retry-After', waited: true });
    expect(decideRetry(at({ method: 'POST', status: 429, retryAfter: '1', retries: 3 }), opts, rnd(1))).toMatchObject({ retry: true, waited: true });
    // Once the waits run out, a 429 uses the ordinary budget, then gives up.
    const spent = opts.maxRateLimitWaits;
    expect(decideRetry(at({ status: 429, retryAfter: '1', rateLimitWaits: spent, retries: 2 }), opts, rnd(1))).toMatchObject({ retry: true, reason: '429, Retry-After' });
    expect(decideRetry(at({ status: 429, retryAfter: '1', rateLimitWaits: spent, retries: 2 }), opts, rnd(1))).not.toHaveProperty('waited');
    expect(decideRetry(at({ status: 429, retryAfter: '1', rateLimitWaits: spent, retries: 3 }), opts, rnd(1))).toEqual({ retry: false, reason: '429, retries exhausted' });
    // Without a readable Retry-After a 429 is an ordinary failure.
    expect(decideRetry(at({ status: 429, retries: 3 }), opts, rnd(1))).toMatchObject({ retry: false });
    expect(decideRetry(at({ status: 429, retryAfter: 'soon', retries: 3 }), opts, rnd(1))).toMatchObject({ retry: false });
    expect(decideRetry(at({ status: 429, retryAfter: '1', retries: 3 }), { ...opts, maxRateLimitWaits: 0 }, rnd(1))).toMatchObject({ retry: false });
    // Dropped connections keep their budget of maxRetries.
    expect(decideRetry(at({ errorCode: 'ECONNRESET', retries: 3, rateLimitWaits: 0 }), opts, rnd(1))).toMatchObject({ retry: false });
  });

  it('gives up on a Retry-After too long to wait, and when retries run out', () => {
    expect(decideRetry(at({ status: 429, retryAfter: '3600' }), opts, rnd(1))).toMatchObject({ retry: false });
    expect(decideRetry(at({ status: 500, retries: 3 }), opts, rnd(1))).toMatchObject({ retry: false, reason: '500, retries exhausted' });
    expect(decideRetry(at({ status: 500, retries: 0 }), { ...opts, maxRetries: 0 }, rnd(1)).retry).toBe(false);
  });

  it('POST: retries only when nothing was done; a lost POST has an unknown outcome', () => {
    const post = (o: Partial<AttemptOutcome>) => decideRetry(at({ method: 'POST', path: '/invitations', ...o }), opts, rnd(1));
    expect(post({ status: 429, retryAfter: '1' })).toMatchObject({ retry: true, delayMs: 1000 });
    expect(post({ status: 503 })).toMatchObject({ retry: true });
    expect(post({ errorCode: 'ECONNREFUSED' })).toMatchObject({ retry: true });
    expect(post({ errorCode: 'ECONNRESET' })).toEqual({ retry: false, reason: 'ECONNRESET', unknownOutcome: true });
    expect(post({ errorCode: 'UND_ERR_SOCKET' })).toMatchObject({ retry: false, unknownOutcome: true });
    expect(post({ errorCode: 'UND_ERR_HEADERS_TIMEOUT' })).toMatchObject({ retry: false, unknownOutcome: true });
    expect(post({ status: 500 })).toMatchObject({ retry: false, unknownOutcome: true });
    expect(post({ status: 502 })).toMatchObject({ retry: false, unknownOutcome: true });
    expect(post({ status: 400 })).toEqual({ retry: false, reason: '400' });
  });
});

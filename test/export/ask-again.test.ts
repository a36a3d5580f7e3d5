import { describe, expect, it } from 'vitest';
import { NetworkError, RateLimitError, ServerError, ServiceGoneError, NotFoundError } from '../../src/client/errors.js';
import { askAgain, EXPORT_RETRIES, isTransient } from '../../src/listing/ask-again.js';

const init = (status: number) => ({ status, method: 'GET', path: '/test_takers/1/scorecard' });
const dropped = () => new NetworkError('lost', { url: 'http://x/v2', code: 'UND_ERR_SOCKET', requestSent: true });
const gone = () => new ServiceGoneError('http://x/v2', { cause: 'connection refused', seconds: 15, failures: 9 });

describe('isTransient', () => {
  it('429, 502/503/504 and dropped connections; never a 4xx, a 500, a refused connection or a gone service', () => {
    expect(isTransient(new RateLimitError(init(429), 1))).toBe(true);
    for (const s of [502, 503, 504]) expect(isTransient(new ServerError(init(s)))).toBe(true);
    expect(isTransient(dropped())).toBe(true);
    expect(isTransient(new ServerError(init(500)))).toBe(false);
    expect(isTransient(new NotFoundError(init(404)))).toBe(false);
    expect(isTransient(new NetworkError('refused', { url: 'http://x/v2', code: 'ECONNREFUSED' }))).toBe(false);
    expect(isTransient(gone())).toBe(false);
  });
});

describe('askAgain', () => {
  const waits: number[] = [];
  const sleep = (ms: number) => {
    waits.push(ms);
    return Promise.resolve();
  };

  it('asks again after transient failures, with backoff or the Retry-After, then returns the answer', async () => {
    waits.length = 0;
    const errors = [dropped(), new RateLimitError(init(429), 2), new ServerError(init(503))];
    let calls = 0;
    const value = await askAgain(
      () => {
        calls++;
        const e = errors.shift();
        return e ? Promise.reject(e) : Promise.resolve('ok');
      },
      { sleep, random: () => 1 },
    );
    expect(value).toBe('ok');
    expect(calls).toBe(4);
    expect(waits).toEqual([1000, 2000, 4000]);
  });

  it('gives up after EXPORT_RETRIES more tries, with the last error', async () => {
    let calls = 0;
    const err = await askAgain(() => {
      calls++;
      return Promise.reject(dropped());
    }, { sleep }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(NetworkError);
    expect(calls).toBe(1 + EXPORT_RETRIES);
  });

  it('does not ask again past the breaker, or after Ctrl-C', async () => {
    let calls = 0;
    expect(await askAgain(() => (calls++, Promise.reject(gone())), { sleep }).catch((e: unknown) => e)).toBeInstanceOf(ServiceGoneError);
    expect(calls).toBe(1);
    const ac = new AbortController();
    ac.abort();
    calls = 0;
    expect(await askAgain(() => (calls++, Promise.reject(dropped())), { sleep, signal: ac.signal }).catch((e: unknown) => e)).toBeInstanceOf(NetworkError);
    expect(calls).toBe(1);
  });

  it('a stop while waiting ends the wait at once', async () => {
    const wake = new AbortController();
    const started = Date.now();
    setTimeout(() => wake.abort(), 50);
    const err = await askAgain(() => Promise.reject(dropped()), { wake: wake.signal }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(NetworkError);
    expect(Date.now() - started).toBeLessThan(900);
  });
});

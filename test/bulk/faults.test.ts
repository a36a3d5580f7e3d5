/** The stub's fault spec (src/stub/faults.ts): parsing, clear errors, reproducible decisions. */
import { describe, expect, it } from 'vitest';
import { FaultInjector, parseFaults } from '../../src/stub/faults.js';

describe('parseFaults', () => {
  it('reads the flag syntax', () => {
    expect(parseFaults('429=0.05,5xx=0.05,drop=0.02,latency=5,seed=42,retry-after=0.5,only=writes')).toEqual({
      rate429: 0.05,
      rate5xx: 0.05,
      rateDrop: 0.02,
      latencyMs: 5,
      retryAfterSeconds: 0.5,
      seed: 42,
      only: 'writes',
    });
    expect(parseFaults('')).toMatchObject({ rate429: 0, rate5xx: 0, rateDrop: 0, latencyMs: 0 });
  });

  it.each([
    ['429', /needs a value/],
    ['boom=1', /Unknown fault "boom"/],
    ['429=2', /must be between 0 and 1/],
    ['5xx=-1', /not a non-negative number/],
    ['429=0.6,5xx=0.6', /add up to more than 1/],
  ])('%s is refused in one sentence', (spec, msg) => {
    expect(() => parseFaults(spec)).toThrow(msg);
  });
});

describe('FaultInjector', () => {
  const run = (spec: string, method = 'POST') => {
    const f = new FaultInjector(spec);
    return Array.from({ length: 2000 }, () => f.decide(method, '/v2/invitations').kind);
  };

  it('the same seed gives the same faults; rates are about right', () => {
    const a = run('429=0.1,5xx=0.1,drop=0.1,seed=9');
    expect(run('429=0.1,5xx=0.1,drop=0.1,seed=9')).toEqual(a);
    expect(run('429=0.1,5xx=0.1,drop=0.1,seed=10')).not.toEqual(a);
    for (const kind of ['429', '5xx', 'drop'] as const) {
      const n = a.filter((k) => k === kind).length;
      expect(n).toBeGreaterThan(140);
      expect(n).toBeLessThan(260);
    }
  });

  it('never drops a GET, never faults the healthcheck, and only=writes spares reads', () => {
    expect(run('drop=0.5,seed=1', 'GET')).not.toContain('drop');
    expect(new FaultInjector('429=1').decide('GET', '/v2/healthcheck').kind).toBe('none');
    expect(run('429=0.5,seed=1,only=writes', 'GET').every((k) => k === 'none')).toBe(true);
  });

  it('429 carries Retry-After', () => {
    const d = new FaultInjector('429=1,retry-after=2').decide('POST', '/v2/invitations');
    expect(d).toEqual({ kind: '429', retryAfter: '2' });
  });
});

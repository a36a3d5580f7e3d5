/**
 * Fault injection for the stub: `jobfit stub serve --faults "429=0.05,5xx=0.05,drop=0.02,latency=5,seed=42"`.
 *
 * A seeded PRNG decides, per request, whether to answer 429 (with Retry-After),
 * a 5xx, or to drop the connection AFTER the request was handled (the write is
 * stored but the client never hears back: the "outcome unknown" case bulk
 * invite must resolve by looking the email up). 429 and 5xx are answered
 * BEFORE the request is handled, so nothing is stored for them, as a real
 * overloaded front end would.
 *
 * The server hook (src/stub/app.ts) calls `decide()` once per request, sleeps
 * `latencyMs()`, then:
 *   - `429`  → answer 429 with `Retry-After: <retryAfter>` and `{ error }`, skip the handler;
 *   - `5xx`  → answer `status` with `{ error }`, skip the handler;
 *   - `drop` → run the handler normally, then destroy the socket instead of replying;
 *   - `none` → normal.
 */
import { isKeyless } from '../api/route-match.js';
import { mulberry32 } from './random.js';

export interface FaultSpec {
  /** Probability of a 429 answer, 0..1. */
  rate429: number;
  /** Probability of a 5xx answer, 0..1. */
  rate5xx: number;
  /** Probability of a dropped connection after the write was stored, 0..1. */
  rateDrop: number;
  /** Added latency per request, milliseconds (jittered ±50% when jitter is on). */
  latencyMs: number;
  /** Seconds sent in Retry-After with a 429 (decimals allowed, e.g. 0.05, for fast tests). */
  retryAfterSeconds: number;
  /** PRNG seed: the same seed and the same request order give the same faults. */
  seed: number;
  /** Which routes are subject to faults: all keyed routes, or only writes (POST/PUT). */
  only?: 'all' | 'writes';
}

export const NO_FAULTS: FaultSpec = { rate429: 0, rate5xx: 0, rateDrop: 0, latencyMs: 0, retryAfterSeconds: 1, seed: 1, only: 'all' };

export type FaultDecision =
  | { kind: 'none' }
  | { kind: '429'; retryAfter: string }
  | { kind: '5xx'; status: 500 | 502 | 503 }
  | { kind: 'drop' };

const KEYS: Record<string, keyof FaultSpec> = {
  '429': 'rate429',
  '5xx': 'rate5xx',
  '500': 'rate5xx',
  drop: 'rateDrop',
  latency: 'latencyMs',
  seed: 'seed',
  'retry-after': 'retryAfterSeconds',
  retry_after: 'retryAfterSeconds',
  retryafter: 'retryAfterSeconds',
};

/**
 * Parses "429=0.05,5xx=0.05,drop=0.02,latency=5,seed=42[,retry-after=1][,only=writes]".
 * Throws an Error with one clear sentence on a bad spec (the command turns it into exit 2).
 */
export function parseFaults(spec: string | undefined): FaultSpec {
  const out: FaultSpec = { ...NO_FAULTS };
  if (!spec?.trim()) return out;
  for (const part of spec.split(',')) {
    const item = part.trim();
    if (!item) continue;
    const eq = item.indexOf('=');
    if (eq < 0) throw new Error(`Fault "${item}" needs a value, e.g. 429=0.05.`);
    const name = item.slice(0, eq).trim().toLowerCase();
    const raw = item.slice(eq + 1).trim();
    if (name === 'only') {
      if (raw !== 'all' && raw !== 'writes') throw new Error(`Fault only=${raw} is not one of: all, writes.`);
      out.only = raw;
      continue;
    }
    const key = KEYS[name];
    if (!key) throw new Error(`Unknown fault "${name}"; known: 429, 5xx, drop, latency, seed, retry-after, only.`);
    const value = Number(raw);
    if (raw === '' || !Number.isFinite(value) || value < 0) throw new Error(`Fault ${name}=${raw} is not a non-negative number.`);
    if (key === 'rate429' || key === 'rate5xx' || key === 'rateDrop') {
      if (value > 1) throw new Error(`Fault ${name}=${raw} is a probability and must be between 0 and 1.`);
    }
    (out as unknown as Record<string, number>)[key] = value;
  }
  if (out.rate429 + out.rate5xx + out.rateDrop > 1) throw new Error('The fault rates add up to more than 1.');
  return out;
}

export class FaultInjector {
  readonly spec: FaultSpec;
  private readonly random: () => number;
  /** Counters, for `stub serve` logs and tests. */
  readonly counts = { requests: 0, '429': 0, '5xx': 0, drop: 0 };

  constructor(spec: FaultSpec | string | undefined) {
    this.spec = typeof spec === 'string' || spec === undefined ? parseFaults(spec) : spec;
    this.random = mulberry32(this.spec.seed);
  }

  get enabled(): boolean {
    const s = this.spec;
    return s.rate429 > 0 || s.rate5xx > 0 || s.rateDrop > 0 || s.latencyMs > 0;
  }

  /** One decision per request. The healthcheck (the route that takes no key) is never faulted (it is how tools see the stub is up). */
  decide(method: string, path: string): FaultDecision {
    const s = this.spec;
    if (path.startsWith('/v2/') && isKeyless(path.slice(3))) return { kind: 'none' };
    if (s.only === 'writes' && method.toUpperCase() === 'GET') return { kind: 'none' };
    this.counts.requests++;
    const r = this.random();
    if (r < s.rate429) {
      this.counts['429']++;
      return { kind: '429', retryAfter: String(s.retryAfterSeconds) };
    }
    if (r < s.rate429 + s.rate5xx) {
      this.counts['5xx']++;
      // Mostly 500 (outcome unknown for a POST to a client that cannot tell), some 502/503.
      const pick = this.random();
      return { kind: '5xx', status: pick < 0.6 ? 500 : pick < 0.8 ? 502 : 503 };
    }
    // A dropped GET teaches nothing new: only writes are dropped after commit.
    if (r < s.rate429 + s.rate5xx + s.rateDrop && method.toUpperCase() !== 'GET') {
      this.counts.drop++;
      return { kind: 'drop' };
    }
    return { kind: 'none' };
  }

  /** Latency to add to this request, in ms (0 when off). */
  latencyMs(): number {
    const l = this.spec.latencyMs;
    if (l <= 0) return 0;
    return Math.round(l * (0.5 + this.random()));
  }
}

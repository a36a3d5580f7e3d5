/**
 * The stub's webhook retry policy: how long to wait after each failed
 * attempt and how long one attempt may take (docs/webhooks.md).
 */
import type { Store } from '../store.js';
import { UsageError } from '../../core/errors.js';

/** Waits after failed attempt 1, 2, …; attempts = delays + 1. About four minutes in all. */
const DEFAULT_RETRY_DELAYS_MS: readonly number[] = [1000, 2000, 4000, 8000, 16000, 32000, 60000, 60000, 60000];
const DEFAULT_ATTEMPT_TIMEOUT_MS = 10_000;

export interface RetryPolicy {
  delaysMs: readonly number[];
  timeoutMs: number;
}

/** Parses "1s,2s,500ms,1m" or "1000,2000" into milliseconds. */
export function parseSchedule(text: string): number[] {
  const out: number[] = [];
  for (const part of text.split(',').map((s) => s.trim()).filter(Boolean)) {
    const m = /^(\d+(?:\.\d+)?)(ms|s|m)?$/.exec(part);
    // A usage error: the text comes from --retry-schedule or JOBFIT_STUB_WEBHOOK_RETRY (exit 2).
    if (!m) throw new UsageError(`Invalid retry delay "${part}": use numbers with ms, s or m, e.g. 1s,2s,4s.`);
    const n = Number(m[1]);
    out.push(Math.round(m[2] === 's' ? n * 1000 : m[2] === 'm' ? n * 60_000 : n));
  }
  return out;
}

export function formatSchedule(delays: readonly number[]): string {
  return delays.map((d) => (d % 60_000 === 0 && d > 0 ? `${d / 60_000}m` : d % 1000 === 0 && d > 0 ? `${d / 1000}s` : `${d}ms`)).join(',');
}

/**
 * The policy in force: JOBFIT_STUB_WEBHOOK_RETRY / JOBFIT_STUB_WEBHOOK_TIMEOUT_MS
 * (tests), else what `stub webhooks --retry-schedule` stored, else the default.
 */
export function retryPolicy(store: Store, env: Record<string, string | undefined> = process.env): RetryPolicy {
  const fromEnv = env.JOBFIT_STUB_WEBHOOK_RETRY;
  const stored = store.meta('webhook_retry_schedule');
  let delaysMs: readonly number[] = DEFAULT_RETRY_DELAYS_MS;
  if (fromEnv !== undefined) delaysMs = parseSchedule(fromEnv);
  else if (stored !== undefined) delaysMs = parseSchedule(stored);
  const t = Number(env.JOBFIT_STUB_WEBHOOK_TIMEOUT_MS);
  return { delaysMs, timeoutMs: Number.isFinite(t) && t > 0 ? t : DEFAULT_ATTEMPT_TIMEOUT_MS };
}

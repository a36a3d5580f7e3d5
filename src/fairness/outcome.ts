/**
 * The outcome a selection rate counts: `--pass 'stars>=4'` (five-star score of
 * the profile), `--pass 'fit>=70'` (job-fit percentage of the profile), or by
 * default Local Law 144's scoring rate (job fit above the sample's median).
 */
import { UsageError } from '../core/errors.js';

export type Measure = 'stars' | 'fit';

export type FairnessOutcome =
  | { kind: 'threshold'; measure: Measure; op: '>=' | '>'; value: number; text: string }
  | { kind: 'scoring_rate'; measure: 'fit'; text: string };

export const SCORING_RATE: FairnessOutcome = { kind: 'scoring_rate', measure: 'fit', text: 'job fit above the median of everyone scored (LL144 scoring rate)' };

/** `stars>=4`, `fit>70`, …; anything else is a usage error naming the forms. */
export function parsePass(text: string | undefined): FairnessOutcome {
  if (text === undefined) return SCORING_RATE;
  const m = /^\s*(stars|fit)\s*(>=|>)\s*(\d+(?:\.\d+)?)\s*$/i.exec(text);
  if (!m) throw new UsageError(`--pass "${text.slice(0, 40)}" is not an outcome; use stars>=N (1 to 5) or fit>=N (0 to 100), with >= or >.`);
  const measure = m[1].toLowerCase() as Measure;
  const value = Number(m[3]);
  const max = measure === 'stars' ? 5 : 100;
  if (value > max) throw new UsageError(`--pass ${measure} goes up to ${max}; ${value} selects nobody.`);
  const op = m[2] as '>=' | '>';
  return { kind: 'threshold', measure, op, value, text: `${measure === 'stars' ? 'five-star score' : 'job fit %'} ${op} ${value}` };
}

/** Whether a score passes a threshold outcome. */
export function passes(o: Extract<FairnessOutcome, { kind: 'threshold' }>, score: number): boolean {
  return o.op === '>=' ? score >= o.value : score > o.value;
}

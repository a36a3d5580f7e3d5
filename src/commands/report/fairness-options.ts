/**
 * The options `report` takes for an adverse-impact analysis (src/fairness/),
 * and their checks before anything connects (exit 2 with one sentence).
 */
import * as z from 'zod';
import { UsageError } from '../../core/errors.js';
import { parsePass } from '../../fairness/outcome.js';
import { DEFAULT_MIN_GROUP, parseShare } from '../../fairness/privacy.js';
import type { FairnessSettings } from '../../fairness/run.js';
import { JOIN_KEYS, type JoinKey } from '../../fairness/selfid.js';
import { flag } from '../kit/flags.js';

export const fairnessOptions = {
  fairness: flag(z.string().min(1).optional(), {
    flag: '--fairness <file>',
    description: 'adverse-impact analysis against this self-identification CSV or .xlsx (read here, never sent; docs/fairness.md)',
  }),
  by: flag(z.string().optional(), { flag: '--by <columns>', description: 'with --fairness: one or two columns of the file to group by, e.g. sex,race' }),
  join: flag(z.enum(JOIN_KEYS as [JoinKey, ...JoinKey[]], { error: 'must be email, person_id or custom_id' }).optional(), {
    flag: '--join <key>',
    description: 'with --fairness: email, person_id or custom_id (default: the first of them the file has)',
  }),
  pass: flag(z.string().optional(), {
    flag: '--pass <rule>',
    description: "with --fairness: who is selected, 'stars>=4' or 'fit>=70' (default: job fit above the median, LL144's scoring rate)",
  }),
  minGroup: flag(z.coerce.number({ error: 'must be a whole number' }).int('must be a whole number').min(2, 'must be 2 or more').optional(), {
    flag: '--min-group <n>',
    description: `with --fairness: groups of fewer people are shown as "fewer than N" and not compared (default ${DEFAULT_MIN_GROUP})`,
  }),
  excludeUnder: flag(z.string().optional(), {
    flag: '--exclude-under <share>',
    description: 'with --fairness: categories under this share of the people (e.g. 2%) get no impact ratio, as LL144 allows',
  }),
  completion: flag(z.boolean().optional(), {
    flag: '--no-completion',
    description: 'with --fairness: do not count completion (saves one request per test taker)',
  }),
};

type Raw = { fairness?: string; by?: string; join?: JoinKey; pass?: string; minGroup?: number; excludeUnder?: string; completion?: boolean; top?: string };

/** The settings, or undefined without --fairness (then its companions are refused). */
export function fairnessSettings(o: Raw): FairnessSettings | undefined {
  if (o.fairness === undefined) {
    // commander sets a --no-* flag's value to true when it is absent: only false was given.
    if (o.completion === false) throw new UsageError('--no-completion goes with --fairness FILE.');
    const stray = (['by', 'join', 'pass', 'minGroup', 'excludeUnder'] as const).find((k) => o[k] !== undefined);
    if (stray) throw new UsageError(`--${stray.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)} goes with --fairness FILE.`);
    return undefined;
  }
  if (o.top !== undefined) throw new UsageError('--top ranks candidates on the group report page; the fairness page shows no person, so it takes no --top.');
  const by = (o.by ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  if (by.length < 1 || by.length > 2) throw new UsageError('--fairness needs --by with one or two columns of the file, such as --by sex,race.');
  if (by.length === 2 && by[0].toLowerCase() === by[1].toLowerCase()) throw new UsageError('--by names the same column twice.');
  return {
    file: o.fairness,
    by,
    join: o.join,
    outcome: parsePass(o.pass),
    rules: { minGroup: o.minGroup ?? DEFAULT_MIN_GROUP, excludeUnder: parseShare(o.excludeUnder) },
    completion: o.completion !== false,
  };
}

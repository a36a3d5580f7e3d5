/**
 * `--status`, `--since`, `--until` and `--by` on `invitations list`,
 * `test-takers list`, `report` and the exports: who is where, and since when.
 * The service has no such filter; the list is filtered here, client-side
 * (src/export/person-status.ts): exact over the complete list with `--all`,
 * over the page the service returned without it (said on stderr).
 */
import * as z from 'zod';
import type { Session } from '../../core/session.js';
import { NUM } from '../../format/number.js';
import { DATE_BASES, type DateBase, type PersonStatus, STATUSES, type StatusFilterSpec } from '../../export/person-status.js';
import { flag } from '../kit/flags.js';

/**
 * A moment: `2026-11-23` (that day, local time), an ISO timestamp
 * (`2026-11-23T09:00:00Z`), or a span ago (`7d`, `12h`, `30m`).
 * `end`: a date alone means the end of that day (for --until).
 */
export function parseMoment(text: string, end: boolean, now = Date.now()): number | undefined {
  const t = text.trim();
  const ago = /^(\d+)\s*([dhmw])$/i.exec(t);
  if (ago) {
    const unit = { m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 }[ago[2].toLowerCase() as 'm' | 'h' | 'd' | 'w'];
    return now - Number(ago[1]) * unit;
  }
  const day = /^(\d{4})-(\d{2})-(\d{2})$/.exec(t);
  if (day) {
    const [y, m, dd] = [Number(day[1]), Number(day[2]) - 1, Number(day[3])];
    const d = new Date(y, m, dd);
    if (d.getFullYear() !== y || d.getMonth() !== m || d.getDate() !== dd) return undefined;
    return end ? new Date(y, m, dd + 1).getTime() : d.getTime();
  }
  if (!/^\d{4}-\d{2}-\d{2}T/.test(t)) return undefined;
  const ms = Date.parse(t);
  return Number.isNaN(ms) ? undefined : ms;
}

const moment = (name: string, end: boolean) =>
  z
    .string()
    .transform((v, zctx) => {
      const ms = parseMoment(v, end);
      if (ms === undefined) {
        zctx.addIssue({ code: 'custom', message: `${name}: "${v}" is not a date; give 2026-11-23, an ISO time such as 2026-11-23T09:00:00Z, or a span ago such as 7d or 12h` });
        return z.NEVER;
      }
      return ms;
    })
    .optional();

const statusList = z
  .string()
  .transform((v, zctx) => {
    const parts = v.split(',').map((s) => s.trim().toLowerCase()).filter(Boolean);
    const bad = parts.filter((p) => !(STATUSES as readonly string[]).includes(p));
    if (parts.length === 0 || bad.length) {
      zctx.addIssue({ code: 'custom', message: `--status: ${bad.length ? `"${bad.join(', ')}" is not a status` : 'give at least one status'}; give ${STATUSES.join(', ')} (comma-separated for several)` });
      return z.NEVER;
    }
    return new Set(parts as PersonStatus[]);
  })
  .optional();

const CLIENT_SIDE = 'filtered here, not by the service: exact with --all, else over the page returned';

/** The four options, for a command's option schema (spread into z.object). */
export const statusFilterOptions = {
  status: flag(statusList, {
    flag: '--status <list>',
    description: `pending (not accepted), accepted (nothing started), started, completed (every assigned assessment done); comma list (${CLIENT_SIDE})`,
  }),
  since: flag(moment('--since', false), { flag: '--since <date>', description: 'on or after this date (2026-11-23, an ISO time, or 7d/12h ago) of --by' }),
  until: flag(moment('--until', true), { flag: '--until <date>', description: 'before the end of this date (a date alone includes that day) of --by' }),
  by: flag(z.enum(DATE_BASES).optional(), { flag: '--by <date>', description: 'which date --since/--until look at: created (default), accepted or completed' }),
};

/**
 * The same four for `report`, whose `--by` groups a fairness analysis (the design
 * card's `report --fairness FILE --by sex,race`): there the date basis is `--date-by`.
 */
export const reportStatusFilterOptions = {
  status: statusFilterOptions.status,
  since: flag(moment('--since', false), { flag: '--since <date>', description: 'on or after this date (2026-11-23, an ISO time, or 7d/12h ago) of --date-by' }),
  until: flag(moment('--until', true), { flag: '--until <date>', description: 'before the end of this date (a date alone includes that day) of --date-by' }),
  dateBy: flag(z.enum(DATE_BASES).optional(), { flag: '--date-by <date>', description: 'which date --since/--until look at: created (default), accepted or completed (--by is the fairness grouping here)' }),
};

export interface StatusFilterOptions {
  status?: Set<PersonStatus>;
  since?: number;
  until?: number;
  by?: DateBase;
}

/** The spec the options describe, or undefined when none was given. */
export function specOf(o: StatusFilterOptions): StatusFilterSpec | undefined {
  if (o.status === undefined && o.since === undefined && o.until === undefined) return undefined;
  return { statuses: o.status, since: o.since, until: o.until, by: o.by ?? 'created' };
}

/** The flags given, for sentences ("--status, --since"). */
export function flagsGiven(o: StatusFilterOptions): string {
  return [o.status && '--status', o.since !== undefined && '--since', o.until !== undefined && '--until'].filter(Boolean).join(', ');
}

/**
 * One page as the service returned it, filtered: the envelope's data are the
 * matches and its total_count their number; when the service had more, a
 * sentence on stderr says that the page was filtered and --all is exact.
 */
export async function filterPage(
  ctx: Session,
  fetch: () => Promise<unknown>,
  test: (it: Record<string, unknown>) => Promise<boolean>,
  o: StatusFilterOptions,
  noun: string,
): Promise<unknown> {
  const env = (await fetch()) as { data: Array<Record<string, unknown>>; total_count?: number; has_more?: boolean };
  const verdicts = await Promise.all(env.data.map((it) => test(it)));
  const data = env.data.filter((_, i) => verdicts[i]);
  if (env.has_more) {
    const of = typeof env.total_count === 'number' ? ` of ${NUM.format(env.total_count)}` : '';
    ctx.info(`${flagsGiven(o)} filtered the first ${NUM.format(env.data.length)}${of} ${noun} the service returned (${NUM.format(data.length)} match); add --all for every match.`);
  }
  return { ...env, data, total_count: data.length };
}

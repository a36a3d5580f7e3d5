/**
 * Where the ids of a bulk result export come from: arguments, a file or stdin
 * (`--ids-from FILE|-`), or every test taker (`--all`, complete via listComplete,
 * fed to the fetch while the list is still being discovered).
 */
import type { JobfitClient, ListFilter } from '../client/client.js';
import type { Session } from '../core/session.js';
import { UsageError } from '../core/errors.js';
import { readId } from '../api/ids.js';
import { readInput } from '../core/input.js';
import { NUM } from '../format/number.js';
import { IdFeed, parseIdLines } from './id-feed.js';
import type { FetchPage, ListAllResult } from '../listing/complete-list.js';
import { type InvitationRef, listTestTakersComplete, type TestTakerLike } from '../listing/guided-list.js';

export interface IdSourceOptions {
  ids: string[];
  idsFrom?: string;
  all?: boolean;
  team?: number;
  customId?: string;
}

export interface IdSource {
  feed: IdFeed<number>;
  /** Settles when every id is in the feed; the listing's figures with --all. */
  done: Promise<ListAllResult | undefined>;
}

/** Columns or fields that hold a test taker id, best first (an invitation's own `id` is not one). */
const ID_KEYS = ['test_taker_id', 'id'] as const;

function idOfRecord(r: Record<string, unknown>): unknown {
  for (const k of ID_KEYS) if (k in r) return r[k];
  return undefined;
}

function idsOfRecords(records: unknown[], where: string): number[] {
  const ids: number[] = [];
  records.forEach((r, i) => {
    const v = r !== null && typeof r === 'object' ? idOfRecord(r as Record<string, unknown>) : r;
    // An invitation nobody accepted yet has no test taker: nothing to fetch for it.
    if (v === null || v === undefined || v === '') return;
    const n = typeof v === 'number' ? v : typeof v === 'string' && /^\d+$/.test(v.trim()) ? Number(v) : NaN;
    if (!Number.isSafeInteger(n) || n <= 0) throw new UsageError(`Item ${i + 1} of ${where} has no test taker id (test_taker_id or id): ${JSON.stringify(v).slice(0, 40)}.`);
    ids.push(n);
  });
  return ids;
}

/**
 * Test taker ids from jobfit's own output as well as from a plain list: JSON
 * (a list envelope, an array, one object), NDJSON, CSV with a header naming
 * `test_taker_id` or `id` (what `test-takers list -o csv --fields id` writes),
 * or one id per line.
 */
async function parseIdList(text: string, where: string): Promise<number[]> {
  const body = text.replace(/^\uFEFF/, '').trim();
  if (body.startsWith('{') || body.startsWith('[')) {
    let doc: unknown;
    try {
      doc = JSON.parse(body);
    } catch {
      // Not one document: NDJSON, a value per line.
      try {
        doc = body.split(/\r?\n/).filter((l) => l.trim()).map((l) => JSON.parse(l) as unknown);
      } catch {
        throw new UsageError(`${where} starts like JSON but is neither JSON nor NDJSON.`);
      }
    }
    const data = Array.isArray(doc) ? doc : doc && typeof doc === 'object' && Array.isArray((doc as { data?: unknown }).data) ? (doc as { data: unknown[] }).data : [doc];
    return idsOfRecords(data, where);
  }
  const first = body.split(/\r?\n/).find((l) => l.trim() && !l.trim().startsWith('#')) ?? '';
  if (first && !/^\d+$/.test(first.trim())) {
    const { parse } = await import('csv-parse/sync');
    const header = (parse(first, { bom: true }) as string[][])[0]?.map((h) => h.trim()) ?? [];
    const key = ID_KEYS.find((k) => header.includes(k));
    if (key) {
      const rows = parse(body, { columns: true, skip_empty_lines: true, relax_column_count: true, bom: true }) as Array<Record<string, string>>;
      return idsOfRecords(rows.map((r) => ({ [key]: r[key] })), where);
    }
  }
  return parseIdLines(text, 'test taker id');
}

/**
 * Each id once, in the order first seen, and how many repeats were left out:
 * a long-form export (`job-fit -o csv`, 15 lines per person) names every
 * person many times, and each must make one report, not fifteen.
 */
export function firstSeen(ids: readonly number[]): { ids: number[]; repeats: number } {
  const unique = [...new Set(ids)];
  return { ids: unique, repeats: ids.length - unique.length };
}

/**
 * The id when exactly one was given on the command line (and no file to write):
 * one id is one answer, its failure the command's (exit 1, not a partial 3),
 * and its JSON the object itself, not a list of one.
 */
export function singleId(o: { ids: string[]; idsFrom?: string; all?: boolean; team?: unknown; customId?: string; out?: string; errors?: string }): number | undefined {
  if (o.ids.length !== 1 || o.idsFrom !== undefined || o.all || o.team !== undefined || o.customId !== undefined) return undefined;
  if (o.out !== undefined || o.errors !== undefined) return undefined;
  return /^\d+$/.test(o.ids[0]) && Number(o.ids[0]) > 0 ? Number(o.ids[0]) : undefined;
}

/** Checks the combination of id sources (a usage error names the conflict). */
export function checkIdSource(o: IdSourceOptions): void {
  const sources = [o.ids.length > 0, o.idsFrom !== undefined, Boolean(o.all)].filter(Boolean).length;
  if (sources === 0) throw new UsageError('Give test taker ids, --ids-from FILE|- or --all.');
  if (sources > 1) throw new UsageError('Give ids as arguments, with --ids-from, or --all: only one of them.');
  if (!o.all && (o.team !== undefined || o.customId !== undefined)) throw new UsageError('--team and --custom-id go with --all.');
  for (const id of o.ids) if (!/^\d+$/.test(id) || Number(id) <= 0) throw new UsageError(`Test taker id must be a positive integer: "${id}".`);
}

export async function idSource(ctx: Session, client: JobfitClient, o: IdSourceOptions): Promise<IdSource> {
  checkIdSource(o);
  if (o.ids.length > 0) {
    const { ids, repeats } = firstSeen(o.ids.map(Number));
    if (repeats > 0) ctx.info(`Skipped ${NUM.format(repeats)} repeated test taker id${repeats === 1 ? '' : 's'} of the arguments: each id is read once.`);
    return { feed: IdFeed.of(ids), done: Promise.resolve(undefined) };
  }
  if (o.idsFrom !== undefined) {
    const where = o.idsFrom === '-' ? 'stdin' : o.idsFrom;
    const { ids, repeats } = firstSeen(await parseIdList(await readInput(ctx.io, o.idsFrom), where));
    if (ids.length === 0) throw new UsageError(`No test taker ids in ${where}.`);
    if (repeats > 0) ctx.info(`Read ${NUM.format(ids.length)} test taker id${ids.length === 1 ? '' : 's'} from ${where}; skipped ${NUM.format(repeats)} repeat${repeats === 1 ? '' : 's'} (each id is read once, in the order first seen).`);
    return { feed: IdFeed.of(ids), done: Promise.resolve(undefined) };
  }
  const feed = new IdFeed<number>();
  const base: ListFilter = {};
  if (o.team !== undefined) base.team_id = o.team;
  if (o.customId !== undefined) base.custom_id = o.customId;
  const fetchTakers = ((q: ListFilter, signal?: AbortSignal) => client.listTestTakers(q, signal)) as FetchPage<TestTakerLike>;
  const fetchInvitations = ((q: ListFilter, signal?: AbortSignal) => client.listInvitations(q, signal)) as FetchPage<InvitationRef>;
  const done = listTestTakersComplete(fetchTakers, fetchInvitations, { team_id: base.team_id, custom_id: base.custom_id }, (t) => feed.push(readId(t.id, 'test taker id')), {
    signal: ctx.io.signal,
    idsOnly: true,
    onRequest: (q, a) => ctx.debug(`  --all: ${JSON.stringify(q)} → ${a.returned} of ${a.total}${a.hasMore ? ' (capped)' : ''}`),
  }).then(
    (r) => {
      feed.close();
      ctx.debug(`--all: ${r.items} test takers in ${r.requests} list requests (minimum ${r.minimum})`);
      return r;
    },
    (err) => {
      feed.close();
      throw err;
    },
  );
  // Handled by the caller's await; this keeps an early failure from being reported as unhandled.
  done.catch(() => {});
  return { feed, done };
}

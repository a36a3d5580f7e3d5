/**
 * report --sp SHORT [--team ID] [--group-by team|custom_id] [-o html [--top N|all]]
 *
 * A group report from a complete export: every invitation (listComplete), then the
 * scorecard of every test taker among them (bulkFetch). Definitions are in
 * src/export/group-report.ts and docs/exports.md.
 */
import * as z from 'zod';
import type { JobfitClient, ListFilter } from '../../client/client.js';
import type { Session } from '../../core/session.js';
import { type BulkResult, bulkFetch, waitingNotice } from '../../export/bulk-fetch.js';
import { createErrorSink, throwIfFailed } from '../../export/error-sink.js';
import { IdFeed } from '../../export/id-feed.js';
import { heapForSize } from '../../core/heap.js';
import { type FetchPage, listComplete } from '../../listing/complete-list.js';
import { streamListing } from '../../listing/item-stream.js';
import { finishExport, isServiceGone } from '../../export/finish.js';
import { type GroupStats, GroupReport, groupId, type InvitationLike, REPORT_CSV_COLUMNS, reportCsvRow, takerIdOf } from '../../export/group-report.js';
import { checkScoreProfile } from '../../export/score-profile.js';
import { ExportTally } from '../../export/tally.js';
import { openTarget } from '../../export/target.js';
import { colorsFor } from '../../format/color.js';
import { NUM } from '../../format/number.js';
import { type ColumnSpec, createListWriter, type ListWriter, jsonText, resolveFormat } from '../../format/output.js';
import { clearProgress, createProgress } from '../../format/progress.js';
import { UsageError } from '../../core/errors.js';
import { Ranking } from './ranked.js';
import { safeLine } from '../../format/sanitize.js';
import type { Context } from '../kit/context.js';
import { defineCommand } from '../kit/define.js';
import { flag } from '../kit/flags.js';
import { checkOutFile, checkOutputOptions } from '../kit/output-checks.js';
import { teamOfExport, nameOrId } from '../shared/name-or-id.js';
import { reportStatusFilterOptions, specOf } from '../shared/status-filter.js';
import { itemPredicate, OUTSIDE_FILTER, orderedFilter } from '../../export/person-status.js';
import { fairnessOptions, fairnessSettings } from './fairness-options.js';
import type { FairnessRun } from '../../fairness/run.js';

const ReportOptions = z.object({
  sp: flag(z.string({ error: 'is required (a score profile short name; see `jobfit score-profiles`)' }).trim().min(1, 'must not be empty'), {
    flag: '--sp <short_name>',
    description: 'score profile short name (required; see `jobfit score-profiles`)',
  }),
  team: flag(nameOrId('--team').optional(), { flag: '--team <id|name>', description: 'only this team (its id or its name)' }),
  groupBy: flag(z.enum(['team', 'custom_id'], { error: 'must be team or custom_id' }).default('team'), { flag: '--group-by <key>', description: 'team (default) or custom_id' }),
  concurrency: flag(z.coerce.number().int().min(1).max(64).default(16), { flag: '--concurrency <n>', description: 'scorecard requests in flight (default 16)' }),
  errors: flag(z.string().optional(), { flag: '--errors <file>', description: 'write the ids whose scorecard failed to FILE as NDJSON (default: stderr)' }),
  top: flag(z.string().regex(/^(all|[1-9]\d*)$/, 'must be a whole number of 1 or more, or all').optional(), {
    flag: '--top <n|all>',
    description: 'with -o html: the candidates ranked per group (default 25; all: every one)',
  }),
  out: flag(z.string().min(1).optional(), { flag: '--out <file>', description: 'write the report to FILE, only once it is complete (a failed run leaves FILE as it was)' }),
  open: flag(z.boolean().optional(), { flag: '--open', description: 'with -o html --out FILE: open the page in the browser once written (off a terminal: its file:// URL on stdout)' }),
  ...reportStatusFilterOptions,
  ...fairnessOptions,
});
type ReportOptions = z.output<typeof ReportOptions>;

async function renderGroups(ctx: Session, sp: string, groups: GroupStats[], total: GroupStats): Promise<string> {
  const { renderBarChart, stars } = await import('../../format/chart.js');
  const c = colorsFor(ctx.io.colorStdout);
  const blocks = [...groups, ...(groups.length > 1 ? [{ ...total, name: 'All groups' }] : [])].map((g) => {
    // Group names and keys are team names and custom ids: a stranger's text.
    const head = `${c.bold(safeLine(g.name))}${g.key !== null && g.name !== String(g.key) && g.name !== 'All groups' ? c.dim(` (${safeLine(String(g.key))})`) : ''}`;
    const counts = `invited ${NUM.format(g.invited)} · accepted ${NUM.format(g.accepted)} · completed ${NUM.format(g.completed)} (score profile ${sp})`;
    const fit = `median job fit ${g.median_job_fit_percentage === null ? '–' : `${g.median_job_fit_percentage}%`}`;
    const riasec = `RIASEC ${g.top_riasec.length ? g.top_riasec.map((r) => `${safeLine(r.code)} (${r.count})`).join(', ') : '–'}`;
    const chart =
      g.completed > 0
        ? renderBarChart(
            (['5', '4', '3', '2', '1'] as const).map((k) => ({ label: stars(Number(k)), value: g.stars[k] })),
            { width: Math.min(ctx.io.columns, 80) - 2, color: ctx.io.colorStdout },
          )
            .split('\n')
            .filter(Boolean)
            .map((l) => `  ${l}`)
            .join('\n')
        : '  (no completed test takers)';
    return `${head}\n  ${counts}\n  ${fit} · ${riasec}\n${chart}\n`;
  });
  return `${blocks.join('\n')}`;
}

const REPORT_FORMATS = ['table', 'json', 'ndjson', 'csv', 'xlsx', 'html'] as const;
const DEFAULT_TOP = 25;

/** Where the data came from, for the page's header. */
function sourceOf(ctx: Context): string {
  const c = ctx.connection;
  if (!c) return 'unknown';
  return c.embedded ? 'the embedded local stub' : `the service at ${c.baseUrl}`;
}

/** What a run gathers as it goes: the groups, the ranked candidates (HTML), the accounts seen, every invitation counted. */
interface Gathering {
  report: GroupReport;
  ranking?: Ranking;
  accounts: Set<string>;
  feed: IdFeed<number>;
  progress: ReturnType<typeof createProgress>;
  tally: ExportTally;
  invitations: number;
  /** --fairness: the join with the self-identification file (src/fairness/). */
  fairness?: FairnessRun;
}

/** --out, the format and the --errors sink, opened in that order; a refusal (exit 2) leaves nothing behind. */
function openOutputs(ctx: Context, o: { out?: string; errors?: string }) {
  const target = openTarget(ctx, o.out, 'groups');
  try {
    const format = resolveFormat(target.ctx, REPORT_FORMATS);
    return { target, format, sink: createErrorSink(ctx, o.errors, 'test taker') };
  } catch (err) {
    // Refused before it began: --out leaves nothing behind.
    target.discard();
    throw err;
  }
}

/** Every invitation (listComplete) into the report; the test taker of each accepted one goes to the feed as it comes. */
function listInvitations(ctx: Context, client: JobfitClient, team: number | undefined, g: Gathering, spec?: ReturnType<typeof specOf>) {
  const add = (inv: InvitationLike & { account?: { id?: number; display_name?: string } | null }) => {
    g.report.addInvitation(inv);
    g.fairness?.addInvitation(inv, takerIdOf(inv));
    if (g.ranking && g.accounts.size < 5 && inv.account) g.accounts.add(inv.account.display_name ? `${inv.account.display_name} (${inv.account.id})` : String(inv.account.id));
    const taker = takerIdOf(inv);
    if (taker !== null) g.feed.push(taker);
    else g.tally.skip('not accepted yet');
  };
  // --status/--since/--until: the invitations outside are counted, not reported (person-status.ts).
  // With --fairness, a test taker the filter reads is not asked for again (its completion is kept).
  const test = spec && itemPredicate(g.fairness?.sharingTestTakers(client) ?? client, 'invitations', spec, ctx.io.signal);
  const outside = (inv: Parameters<typeof add>[0]) => {
    g.fairness?.forget(takerIdOf(inv));
    g.tally.skip(OUTSIDE_FILTER);
  };
  const gate = test && orderedFilter((inv: Parameters<typeof add>[0]) => test(inv as unknown as Record<string, unknown>), (inv, kept) => (kept ? add(inv) : outside(inv)));
  const fetchPage = ((q: ListFilter, signal?: AbortSignal) => client.listInvitations(q, signal)) as FetchPage<
    InvitationLike & { email: string; account?: { id?: number; display_name?: string } | null }
  >;
  const invitations = streamListing(
    (put: (inv: Parameters<typeof add>[0]) => void | Promise<void>, signal: AbortSignal) =>
      listComplete(fetchPage, { team_id: team }, put, {
        signal,
        noun: 'invitations',
        onRequest: (q, a) => ctx.debug(`  --all: ${JSON.stringify(q)} → ${a.returned} of ${a.total}${a.hasMore ? ' (capped)' : ''}`),
      }),
    { signal: ctx.io.signal },
  );
  const listing = (async () => {
    try {
      // The way of an invitation: into the report, and its test taker to the scorecards' feed.
      for await (const inv of invitations) {
        g.invitations++;
        if (gate) await gate.push(inv);
        else add(inv);
      }
      await gate?.drain();
    } catch (err) {
      // The listing failed: what the filter still holds is not waited for (its error, if any, is this one's echo).
      gate?.drain().catch(() => {});
      throw err;
    } finally {
      g.feed.close();
    }
    g.progress.setTotal(g.feed.count);
    return invitations.result;
  })();
  listing.catch(() => {});
  return listing;
}

/** The scorecard of every test taker the listing feeds (bulkFetch), each counted; the first error ends the run. */
async function fetchScorecards(
  ctx: Context,
  client: JobfitClient,
  o: { sp: string; concurrency: number },
  g: Gathering,
  sink: ReturnType<typeof createErrorSink>,
  listing: ReturnType<typeof listInvitations>,
) {
  let result: BulkResult | undefined;
  let listed: Awaited<typeof listing> | undefined;
  let error: unknown;
  try {
    const fetch = g.fairness ? g.fairness.fetch.bind(g.fairness, client) : client.getScorecard.bind(client);
    result = await bulkFetch(g.feed, (id, signal) => fetch(id, o.sp, signal), {
      concurrency: o.concurrency,
      signal: ctx.io.signal,
      stopWhen: isServiceGone,
      onWaiting: waitingNotice(ctx, 'test taker'),
      onSettled: (out) => g.progress.tick({ error: out.kind === 'failed' }),
      onResult: (id, out) => {
        if (out.kind === 'ok') {
          g.tally.write();
          g.report.addScorecard(id, out.value);
          g.fairness?.addScorecard(id, out.value);
          const group = g.ranking && g.report.groupOfTaker(id);
          if (group !== undefined) g.ranking?.add(group, id, out.value);
        } else if (out.kind === 'skipped') {
          g.tally.skip(out.reason);
        } else {
          g.tally.fail();
          sink.failed(id, out.error);
        }
      },
    });
    listed = await listing;
  } catch (err) {
    error = err;
  }
  try {
    await sink.close({ stopped: error !== undefined });
  } catch (err) {
    // The --errors file could not be written: the run cannot pass for a finished one.
    error ??= err;
  }
  return { result, listed, error };
}

/** The report in its format on the target's stdout; the list writer of csv, xlsx and ndjson, which finishExport ends. */
async function writeReport(
  ctx: Context,
  out: Session,
  format: (typeof REPORT_FORMATS)[number],
  o: Omit<ReportOptions, 'team'> & { team?: number },
  g: Gathering,
): Promise<ListWriter | undefined> {
  const groups = g.report.result();
  const total = g.report.total();
  // The bar is erased before a line of the report is printed: nothing is drawn over it, or after it.
  clearProgress(ctx);
  if (g.fairness) {
    const page = { source: sourceOf(ctx), account: ctx.connection?.account, mode: ctx.connection?.mode };
    return g.fairness.write(out, format, g.fairness.report(o.sp, o.team, ctx.io.now()), page);
  }
  if (format === 'html' && g.ranking) {
    const ranking = g.ranking;
    const { renderGroupReportHtml } = await import('../../format/html/group-report.js');
    out.io.stdout.write(
      renderGroupReportHtml({
        scoreProfile: o.sp,
        groupBy: o.groupBy,
        generatedAt: ctx.io.now(),
        source: sourceOf(ctx),
        account: ctx.connection?.account ?? ([...g.accounts].join(', ') || undefined),
        mode: ctx.connection?.mode,
        team: o.team,
        top: o.top === 'all' ? 'all' : topOf(o.top),
        groups: groups.map((gr) => ({ stats: gr, ...ranking.group(groupId(gr.key)) })),
        total: { stats: total, bins: ranking.totalBinsOf() },
      }),
    );
  } else if (format === 'json') {
    out.io.stdout.write(`${jsonText({ object: 'group_report', score_profile: o.sp, group_by: o.groupBy, team_id: o.team ?? null, groups, total }, 2)}\n`);
  } else if (format === 'table') {
    out.io.stdout.write(await renderGroups(out, o.sp, groups, total));
  } else {
    const columns: ColumnSpec[] = REPORT_CSV_COLUMNS.map((k) => ({ key: k }));
    const writer = await createListWriter(out, { columns, csvColumns: [...REPORT_CSV_COLUMNS], knownFields: [...REPORT_CSV_COLUMNS], noun: 'groups' });
    for (const gr of groups) {
      if (!writer.write(format === 'csv' || format === 'xlsx' ? reportCsvRow(o.groupBy, gr) : { group_by: o.groupBy, ...gr })) await writer.drained();
    }
    return writer;
  }
  return undefined;
}

/** --top as a number of candidates per group. */
const topOf = (top: string | undefined): number => (top === undefined ? DEFAULT_TOP : top === 'all' ? Number.POSITIVE_INFINITY : Number(top));

async function run(opts: ReportOptions, ctx: Context): Promise<void> {
  if (opts.top !== undefined && ctx.globals.output !== 'html') throw new UsageError('--top ranks the candidates of an HTML report; add -o html.');
  if (opts.open && (ctx.globals.output !== 'html' || opts.out === undefined)) throw new UsageError('--open opens the page of -o html --out FILE; add them.', 'jobfit report --sp SHORT -o html --out report.html --open');
  // Every option before the first request: -o, --out and --errors (the score profile and --team's name need the service).
  checkOutputOptions(ctx, { out: opts.out, formats: REPORT_FORMATS });
  if (opts.errors !== undefined) checkOutFile(opts.errors, '--errors');
  const fair = fairnessSettings(opts);
  // The self-identification file is read (and refused) before anything connects.
  const fairness = fair && (await import('../../fairness/run.js').then((m) => m.FairnessRun.open(fair, ctx)));
  const client = await ctx.client();
  heapForSize();
  await checkScoreProfile(client, opts.sp, ctx.connection?.mode, ctx.io.signal);
  const o = { ...opts, team: await teamOfExport(client, opts.team, ctx.io.signal) };
  const started = performance.now();
  const { target, format, sink } = openOutputs(ctx, o);
  const g: Gathering = {
    report: new GroupReport(o.groupBy),
    ranking: format === 'html' && !fairness ? new Ranking(topOf(o.top)) : undefined,
    fairness,
    accounts: new Set<string>(),
    feed: new IdFeed<number>(),
    progress: createProgress(ctx, { label: 'Scorecards', noun: 'test takers' }),
    // Every invitation ends in the report: not accepted yet, or its test taker's scorecard counted, or failed.
    tally: new ExportTally('invitations', 'counted with their scorecard'),
    invitations: 0,
  };
  const { result, listed, error } = await fetchScorecards(ctx, client, o, g, sink, listInvitations(ctx, client, o.team, g, specOf({ ...o, by: o.dateBy })));
  let writer: ListWriter | undefined;
  if (error === undefined) {
    ctx.debug(`report: ${listed?.items} invitations in ${listed?.requests} list requests (minimum ${listed?.minimum}); ${result?.requests} scorecard requests`);
    writer = await writeReport(ctx, target.ctx, format, o, g);
  }
  await finishExport(
    ctx,
    {
      target,
      writer,
      tally: g.tally,
      listed: listed?.items ?? g.invitations,
      totalCount: listed?.total,
      created: listed?.created,
      elapsedMs: performance.now() - started,
      stopProgress: () => g.progress.stop(),
      rerun: 'jobfit report',
    },
    error,
  );
  if (result && result.failed > 0) ctx.warn('the report is missing the scorecards that could not be fetched.');
  if (opts.open && opts.out !== undefined) await (await import('../shared/open-url.js')).openInBrowser(ctx, opts.out, 'the report');
  if (result) throwIfFailed(result, 'scorecards', o.errors);
}

export default defineCommand({
  description: 'Group report: invited / accepted / completed, five-star distribution, median job fit and common RIASEC codes per team or custom_id',
  options: ReportOptions,
  examples: [
    'jobfit report --sp sales-rep',
    'jobfit report --sp sales-rep --group-by custom_id -o csv',
    'jobfit report --sp sales-rep -o xlsx --out groups.xlsx',
    'jobfit report --sp sales-rep -o html --out report.html --top 50',
    'jobfit report --sp sales-rep -o html --out report.html --open',
    'jobfit report --sp sales-rep --team 12 -o json | jq ".groups[0].stars"',
    'jobfit report --sp sales-rep --fairness fixtures/fairness/self-id.csv --by sex,race --exclude-under 2%',
  ],
  footer:
    '\n\nDefinitions: invited = invitations in the group; accepted = invitations with a test taker;\n' +
    'completed = test takers whose scorecard for --sp has a five_star_score. The star\n' +
    'distribution sums to completed. Built from a complete export (every invitation and\n' +
    'scorecard), so it takes one request per test taker.\n\n' +
    'Adverse impact (--fairness FILE --by COLUMNS): the file is read here and never sent;\n' +
    'rates, impact ratios (four-fifths rule), Fisher p-values per group: docs/fairness.md.',
  run,
});

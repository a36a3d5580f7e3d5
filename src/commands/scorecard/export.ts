/**
 * scorecard --sp SHORT ID... | --ids-from FILE|- | --all [--team ID] [--custom-id TEXT]
 *
 * One scorecard per test taker. CSV is wide (src/export/scorecard-rows.ts);
 * JSON and NDJSON keep the API's objects. With --all, only test takers who
 * have results are written; the others are counted on stderr.
 */
import * as z from 'zod';
import { fieldNames } from '../../api/field-names.js';
import { Scorecard } from '../../api/schemas/scorecard.js';
import { throwIfFailed } from '../../export/error-sink.js';
import { runIdExport } from '../../export/id-export.js';
import { heapForSize } from '../../core/heap.js';
import { idSource, singleId } from '../../export/ids.js';
import { checkScoreProfile } from '../../export/score-profile.js';
import { hasResults, scorecardColumns, scorecardCsvRow } from '../../export/scorecard-rows.js';
import { openTarget } from '../../export/target.js';
import { type ColumnSpec, createListWriter, printList, printObject, resolveFormat } from '../../format/output.js';
import type { Context } from '../kit/context.js';
import { defineCommand } from '../kit/define.js';
import { flag } from '../kit/flags.js';
import { checkOutFile, checkOutputOptions } from '../kit/output-checks.js';
import { checkIdSources, exportFlags } from '../shared/export-options.js';
import { teamOfExport } from '../shared/name-or-id.js';
import { specOf } from '../shared/status-filter.js';
import { checkWebOne, openWeb, webFlag } from '../shared/web.js';
import { finishRetry, planRetry } from '../shared/retry-export.js';
import { gateExport } from '../../export/person-status.js';

const ScorecardOptions = z
  .object({
    sp: flag(z.string({ error: 'is required (a score profile short name; see `jobfit score-profiles`)' }).trim().min(1, 'must not be empty'), {
      flag: '--sp <short_name>',
      description: 'score profile short name (required; see `jobfit score-profiles`)',
    }),
    ...exportFlags({
      all: 'every test taker who has results (the complete list, past the 50-item cap)',
      errors: 'write failed ids and their errors to FILE as NDJSON (default: stderr)',
    }),
    web: webFlag("one test taker's scorecard page"),
  })
  .superRefine(checkIdSources);
type ScorecardOptions = z.output<typeof ScorecardOptions>;

/** The reason --all leaves a test taker out of a scorecard export. */
const NO_RESULTS = 'without results yet';

const TABLE_COLUMNS: ColumnSpec[] = [
  { key: 'test_taker_id', header: 'TEST TAKER', align: 'right' },
  { key: 'first_name', header: 'FIRST' },
  { key: 'last_name', header: 'LAST' },
  { key: 'email', header: 'EMAIL' },
  { key: 'five_star_score', header: 'STARS', align: 'right' },
  { key: 'job_fit_percentage', header: 'FIT %', align: 'right' },
  { key: 'riasec_profile', header: 'RIASEC' },
];

async function run(o: ScorecardOptions, ctx: Context): Promise<void> {
  // --fields: the CSV's columns (CSV, xlsx, the table) and the scorecard object's names (JSON, NDJSON).
  const fields = { columns: TABLE_COLUMNS, fieldNames: [...scorecardColumns(), ...fieldNames(Scorecard)] };
  checkOutputOptions(ctx, { fields, out: o.out });
  if (o.errors !== undefined) checkOutFile(o.errors, '--errors');
  checkWebOne(o);
  const client = await ctx.client();
  await checkScoreProfile(client, o.sp, ctx.connection?.mode, ctx.io.signal);
  if (o.web) {
    const card = await client.getScorecard(Number(o.ids[0]), o.sp, ctx.io.signal);
    return openWeb(ctx, card.scorecard_url, `the scorecard of test taker ${o.ids[0]}`, `Test taker ${o.ids[0]} has no scorecard page yet (scorecard_url is empty).`);
  }
  const one = specOf(o) ? undefined : singleId(o);
  if (one !== undefined) {
    const card = await client.getScorecard(one, o.sp, ctx.io.signal);
    const format = resolveFormat(ctx);
    if (format === 'json' || format === 'ndjson') return printObject(ctx, card, fields);
    const columns = scorecardColumns();
    return printList(ctx, [scorecardCsvRow(card)], { ...fields, csvColumns: columns, noun: 'scorecards', capNotice: false });
  }
  heapForSize();
  const format = ctx.globals.output ?? 'json';
  const plan = planRetry(o, 'scorecard', o.sp, format);
  const source = plan.source ?? (await idSource(ctx, client, { ...o, team: await teamOfExport(client, o.team, ctx.io.signal) }));
  const columns = scorecardColumns();
  const target = openTarget(ctx, plan.out, 'scorecards');
  let flat = false;
  const { result, listing } = await runIdExport(ctx, {
    source,
    target,
    label: 'Scorecards',
    all: o.all,
    concurrency: o.concurrency,
    errors: o.errors,
    rerun: 'jobfit scorecard',
    ...gateExport(client, specOf(o), (id, signal) => client.getScorecard(id, o.sp, signal)),
    async openWriter() {
      const writer = await createListWriter(target.ctx, { ...fields, csvColumns: columns, noun: 'scorecards', flatItems: true });
      // CSV, xlsx and the table get the flat row (flatItems); JSON and NDJSON the API's object.
      flat = writer.format === 'csv' || writer.format === 'xlsx' || writer.format === 'table';
      return writer;
    },
    skipValue: (card) => (o.all && !hasResults(card) ? NO_RESULTS : undefined),
    write: (card, w) => w?.write(flat ? scorecardCsvRow(card) : card),
    onFailed: (id) => plan.failed.push(id),
  });
  finishRetry(ctx, o, plan, 'scorecard', o.sp, format);
  ctx.debug(`scorecard: ${result?.requests} scorecard requests${listing ? ` + ${listing.requests} list requests (minimum ${listing.minimum})` : ''}`);
  if (result) throwIfFailed(result, 'scorecards', o.errors);
}

export default defineCommand({
  description: 'Scorecards for a score profile: one per test taker (wide CSV for analysis, or the API objects)',
  args: [{ name: 'ids', description: 'test taker ids', optional: true, variadic: true }],
  options: ScorecardOptions,
  examples: [
    'jobfit scorecard 500001 --sp sales-rep',
    'jobfit scorecard --all --sp sales-rep -o csv > scorecards.csv',
    'jobfit scorecard --all --sp sales-rep -o xlsx --out scorecards.xlsx',
    'jobfit scorecard --all --team 12 --sp sales-rep -o ndjson | jq .five_star_score',
    'jobfit test-takers list --team 12 -o csv --fields id | jobfit scorecard --ids-from - --sp sales-rep -o csv',
  ],
  footer:
    '\n\nCSV columns: test_taker_id, invitation_id, first_name, last_name, email, custom_id, person_id,\n' +
    'fitscore_raw, five_star_score, job_fit_percentage, riasec_profile, then one column per\n' +
    'dimension and facet short_name in catalog order (think, think-read, ...), empty where a\n' +
    'section has no score. Exit 3 when some scorecards could not be fetched.',
  run,
});

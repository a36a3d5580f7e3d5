/**
 * job-fit ID... | --ids-from FILE|- | --all [--team ID] [--custom-id TEXT]
 *
 * On a terminal (a few ids) the reports are drawn (src/format/jobfit-report.ts);
 * `-o csv` is long form, one line per test taker per top job family;
 * JSON/NDJSON keep the API's objects; `-o html` is one self-contained page with a
 * section per test taker (src/format/html/job-fit.ts). A report that is not ready yet (the
 * Personality and Career Interests assessments are not both complete) is not
 * a failure: those test takers are listed on stderr (and in --errors FILE).
 */
import * as z from 'zod';
import { fieldNames } from '../../api/field-names.js';
import { JobFitReport } from '../../api/schemas/job-fit.js';
import { JobfitError } from '../../core/errors.js';
import { errorText, throwIfFailed } from '../../export/error-sink.js';
import { runIdExport } from '../../export/id-export.js';
import { heapForSize } from '../../core/heap.js';
import { idSource, singleId } from '../../export/ids.js';
import { openTarget } from '../../export/target.js';
import { JOB_FIT_CSV_COLUMNS, jobFitLongRows } from '../../export/job-fit-rows.js';
import { printJobFitReports } from '../../format/jobfit-report.js';
import { NUM } from '../../format/number.js';
import { clearProgress } from '../../format/progress.js';
import { type ColumnSpec, createListWriter, printList, printObject, resolveFormat } from '../../format/output.js';
import type { Context } from '../kit/context.js';
import { defineCommand } from '../kit/define.js';
import { checkOutFile, checkOutputOptions } from '../kit/output-checks.js';
import { checkIdSources, exportFlags } from '../shared/export-options.js';
import { teamOfExport } from '../shared/name-or-id.js';
import { specOf } from '../shared/status-filter.js';
import { checkWebOne, openWeb, webFlag } from '../shared/web.js';
import { finishRetry, planRetry } from '../shared/retry-export.js';
import { gateExport } from '../../export/person-status.js';

const JobFitOptions = z
  .object(
    exportFlags({
      all: 'every test taker (the complete list, past the 50-item cap)',
      errors: 'write failed and not-ready ids to FILE as NDJSON (default: stderr)',
    }),
  )
  .extend({ web: webFlag("one test taker's job-fit summary page") })
  .superRefine(checkIdSources);
type JobFitOptions = z.output<typeof JobFitOptions>;

const JOB_FIT_FORMATS = ['table', 'json', 'ndjson', 'csv', 'xlsx', 'html'] as const;

/** Where the data came from, for the page's header. */
function pageHead(ctx: Context, count?: number) {
  const c = ctx.connection;
  return { count, generatedAt: ctx.io.now(), source: !c ? 'unknown' : c.embedded ? 'the embedded local stub' : `the service at ${c.baseUrl}`, mode: c?.mode };
}

/** Reports drawn in full on a terminal up to this many; beyond, the long-form table. */
const RENDER_MAX = 10;

const TABLE_COLUMNS: ColumnSpec[] = JOB_FIT_CSV_COLUMNS.map((k) => ({
  key: k,
  header: k.replace(/^job_family_|^job_fit_/, '').replace(/_/g, ' ').toUpperCase(),
  align: k === 'job_family_name' || k === 'job_family_number' ? undefined : ('right' as const),
}));

/** --fields: the long form's columns (CSV, xlsx, the table) and the report's names (JSON, NDJSON). */
const FIELDS = { columns: TABLE_COLUMNS, fieldNames: [...JOB_FIT_CSV_COLUMNS, ...fieldNames(JobFitReport)] };

/**
 * A 400 from the job-fit route for a test taker that exists means "not ready"
 * (the reference does not show the answer; the stub says so in words).
 */
function notReadyReason(err: unknown): string | undefined {
  const e = err as { status?: number; path?: string };
  if (e?.status !== 400) return undefined;
  const text = errorText(err);
  if (/not found/i.test(text)) return undefined;
  return 'job-fit report not available yet';
}

/** One id on the command line: one answer, its failure the command's (exit 1); JSON is the report itself. */
async function runOne(id: number, ctx: Context): Promise<void> {
  const client = await ctx.client();
  let report: unknown;
  try {
    report = await client.getJobFitReport(id, ctx.io.signal);
  } catch (err) {
    if (notReadyReason(err)) throw new JobfitError(`The job-fit report of test taker ${id} is not available yet (Personality and Career Interests are not both complete).`);
    throw err;
  }
  const format = resolveFormat(ctx, JOB_FIT_FORMATS);
  if (format === 'table') return printJobFitReports(ctx, [report]);
  if (format === 'html') {
    const { createJobFitHtmlWriter } = await import('../../format/html/job-fit.js');
    const w = createJobFitHtmlWriter(ctx, pageHead(ctx, 1), () => []);
    w.write(report);
    return void (await w.end());
  }
  if (format === 'csv') return printList(ctx, jobFitLongRows(report), { ...FIELDS, csvColumns: [...JOB_FIT_CSV_COLUMNS], noun: 'job families', capNotice: false });
  return printObject(ctx, report, FIELDS);
}

async function run(o: JobFitOptions, ctx: Context): Promise<void> {
  checkOutputOptions(ctx, { fields: FIELDS, out: o.out, formats: JOB_FIT_FORMATS });
  if (o.errors !== undefined) checkOutFile(o.errors, '--errors');
  checkWebOne(o);
  if (o.web) {
    const tt = await (await ctx.client()).getTestTaker(Number(o.ids[0]), ctx.io.signal);
    return openWeb(ctx, tt.job_fit_summary_url, `the job-fit summary of test taker ${tt.id}`, `The job-fit summary of test taker ${tt.id} is not available yet (Personality and Career Interests are not both complete).`);
  }
  const one = specOf(o) ? undefined : singleId(o);
  if (one !== undefined) return runOne(one, ctx);
  const client = await ctx.client();
  heapForSize();
  const plan = planRetry(o, 'job-fit', undefined, ctx.globals.output ?? 'json');
  const source = plan.source ?? (await idSource(ctx, client, { ...o, team: await teamOfExport(client, o.team, ctx.io.signal) }));
  const target = openTarget(ctx, plan.out, 'job-fit rows');
  const format = resolveFormat(target.ctx, JOB_FIT_FORMATS);
  const render = format === 'table' && !o.all && source.feed.count <= RENDER_MAX;
  const rendered: unknown[] = [];
  const notReady: number[] = [];
  let long = false;
  const { result } = await runIdExport(ctx, {
    source,
    target,
    label: 'Job-fit reports',
    all: o.all,
    concurrency: o.concurrency,
    errors: o.errors,
    rerun: 'jobfit job-fit',
    ...gateExport(client, specOf(o), (id, signal) => client.getJobFitReport(id, signal), notReadyReason),
    async openWriter() {
      if (render) return undefined;
      if (format === 'html') {
        const { createJobFitHtmlWriter } = await import('../../format/html/job-fit.js');
        return createJobFitHtmlWriter(target.ctx, pageHead(ctx, o.all ? undefined : source.feed.count), () => notReady);
      }
      const w = await createListWriter(target.ctx, { ...FIELDS, csvColumns: [...JOB_FIT_CSV_COLUMNS], noun: 'job families' });
      long = w.format === 'csv' || w.format === 'xlsx' || w.format === 'table';
      return w;
    },
    onSkipped: (id) => notReady.push(id),
    onFailed: (id) => plan.failed.push(id),
    write(report, w) {
      if (render) return void rendered.push(report);
      if (!long) return w?.write(report);
      let room = true;
      for (const row of jobFitLongRows(report)) room = w?.write(row) !== false && room;
      return room;
    },
    beforeFinish(error) {
      // The bar is erased before the first line of a report: nothing is drawn over it, or after it.
      clearProgress(ctx);
      if (render && error === undefined) printJobFitReports(ctx, rendered);
      if (notReady.length > 0) {
        const shown = notReady.slice(0, 50).join(', ');
        const more = notReady.length > 50 ? ` and ${NUM.format(notReady.length - 50)} more` : '';
        // Said even with --quiet: a missing report must never look like an empty one.
        ctx.io.stderr.write(
          `Not available yet for ${NUM.count(notReady.length, 'test taker')} (Personality and Career Interests not both complete): ${shown}${more}\n`,
        );
      }
    },
  });
  finishRetry(ctx, o, plan, 'job-fit', undefined, ctx.globals.output ?? 'json');
  if (result) throwIfFailed(result, 'job-fit reports', o.errors);
}

export default defineCommand({
  description: 'Job-fit reports: drawn on a terminal, JSON/NDJSON objects, long-form CSV (one line per top job family), or an HTML page',
  args: [{ name: 'ids', description: 'test taker ids', optional: true, variadic: true }],
  options: JobFitOptions,
  examples: [
    'jobfit job-fit 500001',
    'jobfit job-fit --all -o csv > job-fit.csv',
    'jobfit job-fit --all -o xlsx --out job-fit.xlsx',
    'jobfit job-fit 500001 500002 -o ndjson | jq ".top_fit_occupations[0]"',
    'jobfit job-fit 500001 500002 -o html --out candidates.html',
  ],
  footer:
    `\n\nCSV columns: ${JOB_FIT_CSV_COLUMNS.join(', ')}.\n` +
    'Test takers whose report is not ready yet are listed on stderr (not a failure).\n' +
    'Exit 3 when some reports could not be fetched.',
  run,
});

/**
 * The long-form job-fit CSV (`job-fit -o csv`, `job-fit --all`): one row per
 * test taker per top job family, in rank order, under a fixed header. Beside
 * scorecard-rows.ts, the wide scorecard CSV; the report as a person reads it
 * at a terminal is format/jobfit-report.ts.
 */
import { byRank, type JobFitReportView } from '../format/jobfit-report.js';

/** Columns of the long-form job-fit CSV: one line per test taker per top job family. */
export const JOB_FIT_CSV_COLUMNS = [
  'test_taker_id',
  'rank',
  'job_family_number',
  'job_family_name',
  'job_family_job_zone',
  'job_fit_percentage',
  'job_fit_star_rating',
] as const;

export type JobFitLongRow = Record<(typeof JOB_FIT_CSV_COLUMNS)[number], string | number | null>;

/**
 * A report in long form, ranked: feed the rows to createListWriter with
 * `csvColumns: [...JOB_FIT_CSV_COLUMNS]` for `job-fit -o csv`.
 */
export function jobFitLongRows(report: unknown): JobFitLongRow[] {
  const r = (report ?? {}) as JobFitReportView;
  return byRank(r.top_fit_occupations).map((j, i) => ({
    test_taker_id: r.test_taker_id ?? null,
    rank: j.rank ?? i + 1,
    job_family_number: j.job_family_number ?? null,
    job_family_name: j.job_family_name ?? null,
    job_family_job_zone: j.job_family_job_zone ?? null,
    job_fit_percentage: j.job_fit_percentage ?? null,
    job_fit_star_rating: j.job_fit_star_rating ?? null,
  }));
}

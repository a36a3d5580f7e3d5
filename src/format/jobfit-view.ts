/**
 * A job_fit_report as the renderers read it (the terminal's,
 * src/format/jobfit-report.ts, and the page's, src/format/html/job-fit.ts):
 * every field of the type the renderer expects, or null. The client passes
 * through what a server sends, so a field may be missing, null, or of another
 * type altogether (a `job_fit_percentage` of "87.5", a `rank` of
 * `{"toString": 1}`): read once here, leniently, such a field is a number
 * when it is one written as text, and otherwise null, never a crash in the
 * middle of a page.
 */
import * as z from 'zod';

/** A finite number, or one written as text ("87.5"); anything else is null. */
const num = z
  .preprocess((v) => (typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v)) ? Number(v) : v), z.number().finite())
  .nullish()
  .catch(null);
const text = z.string().nullish().catch(null);
/** A list of T, the entries that are not objects left out. */
const listOf = <T extends z.ZodType>(item: T) =>
  z
    .array(z.unknown())
    .transform((xs) => xs.filter((x) => x !== null && typeof x === 'object' && !Array.isArray(x)).map((x) => item.parse(x) as z.output<T>))
    .nullish()
    .catch(null);

const named = { id: num, display_name: text, short_name: text, description: text, rank: num };
const Named = z.object(named);
const Facet = z.object({ ...named, test_taker_score_range: text, anchor_low: text, anchor_high: text });
const WithFacets = z.object({ ...named, facets: listOf(Facet) });
const JobFamilyFit = z.object({
  job_family_number: text,
  job_family_name: text,
  job_family_job_zone: num,
  job_fit_percentage: num,
  job_fit_star_rating: num,
  rank: num,
});
const Ref = z.object({ id: num, display_name: text }).nullish().catch(null);

const View = z.object({
  test_taker_id: num,
  invitation_id: num,
  custom_id: text,
  person_id: text,
  first_name: text,
  last_name: text,
  email: text,
  scorecard_url: text,
  team: Ref,
  account: Ref,
  riasec_profile: text,
  career_interests_profile: listOf(Named),
  career_interests: listOf(WithFacets),
  personality_traits_profile: listOf(Named),
  personality_traits: listOf(WithFacets),
  top_fit_occupations: listOf(JobFamilyFit),
});

/** The parts of a job_fit_report the renderers read, each of its type or null. */
export type JobFitReportView = z.output<typeof View>;
export type NamedView = z.output<typeof Named>;
export type FacetView = z.output<typeof Facet>;
export type WithFacetsView = z.output<typeof WithFacets>;

/** A report as received (anything at all) read as the renderers' view. */
export function readJobFitReport(report: unknown): JobFitReportView {
  return View.parse(report !== null && typeof report === 'object' && !Array.isArray(report) ? report : {});
}

/** Entries by rank (unranked, or a rank that is not a number, last), a copy. */
export function byRank<T extends { rank?: unknown }>(xs: T[] | null | undefined): T[] {
  const key = (x: T) => (typeof x.rank === 'number' && Number.isFinite(x.rank) ? x.rank : 99);
  return [...(xs ?? [])].sort((a, b) => key(a) - key(b));
}

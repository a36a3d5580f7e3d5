/**
 * `job-fit ID... -o html`: one section per candidate in one page (a page
 * break between them in print), in the group report's style: the RIASEC
 * profile, the top three interests and the top five traits with their facet
 * ranges, and the 15 top job families with stars and fit bars.
 *
 * Read as leniently as the terminal view (src/format/jobfit-report.ts): any
 * field may be missing and the section still renders.
 */
import { byRank, type JobFitReportView } from '../jobfit-report.js';
import { untilDrained } from '../drain.js';
import type { ListWriter, OutputCtx } from '../output.js';
import { BLUES, esc, fmt, metaList, PAGE_TAIL, pageHead, safeHref, starsHtml } from './page.js';

type Named = NonNullable<JobFitReportView['career_interests_profile']>[number];
type WithFacets = NonNullable<JobFitReportView['career_interests']>[number];

const LEVELS: Record<string, number> = { low: 1, 'less pronounced': 1, medium: 2, 'moderately pronounced': 2, high: 3, 'more pronounced': 3 };
const levelOf = (range: string | null | undefined): number => LEVELS[(range ?? '').toLowerCase()] ?? 0;

/** A three-step gauge: filled squares in the dark blue, empty ones outlined; the range's words beside it. */
function gauge(range: string | null | undefined): string {
  const n = levelOf(range);
  const cells = [0, 1, 2].map((i) => `<rect x="${i * 12}" y="1" width="10" height="10" fill="${i < n ? BLUES[4] : '#fff'}" stroke="#1a1a1a" stroke-width="0.8"/>`).join('');
  return `<svg class="gauge" viewBox="0 0 36 12" width="36" height="12" aria-hidden="true">${cells}</svg> ${esc(range ?? '–')}`;
}

function facetsOf(entry: Named, all: WithFacets[] | null | undefined): NonNullable<WithFacets['facets']> {
  const match = (all ?? []).find(
    (d) =>
      (entry.id != null && d.id === entry.id) ||
      (entry.short_name != null && d.short_name === entry.short_name) ||
      (entry.display_name != null && d.display_name?.replace(/ Overall$/, '') === entry.display_name),
  );
  return match?.facets ?? [];
}

/** What the letters of a RIASEC code stand for (Holland's six interest types). */
const RIASEC_LEGEND =
  '<p class="note">The code is the three strongest of six interest types, strongest first: <b>R</b> Realistic (hands-on), <b>I</b> Investigative (analytical), ' +
  '<b>A</b> Artistic (creative), <b>S</b> Social (helping), <b>E</b> Enterprising (persuading, leading), <b>C</b> Conventional (organising).</p>';

/** The six interests as bars of their mean facet level (Low 1 … High 3), the top three ranked and darker. */
function riasecChart(r: JobFitReportView, who: string): string {
  const interests = r.career_interests ?? [];
  const ranked = byRank(r.career_interests_profile);
  const rankOf = (d: WithFacets) => ranked.find((p) => (p.id != null && p.id === d.id) || (p.short_name != null && p.short_name === d.short_name))?.rank ?? null;
  const rows = interests
    .map((d) => {
      const f = d.facets ?? [];
      const mean = f.length ? f.reduce((a, x) => a + levelOf(x.test_taker_score_range), 0) / f.length : 0;
      return { name: d.display_name ?? d.short_name ?? '?', mean, rank: rankOf(d), facets: f };
    })
    // The ranked three first, in rank order: the order a reader takes for the ranking.
    .sort((a, b) => (a.rank ?? 99) - (b.rank ?? 99));
  const code = r.riasec_profile ? `<p>RIASEC code <span class="riasec">${esc(r.riasec_profile)}</span></p>${RIASEC_LEGEND}` : '';
  if (rows.length === 0) return `<figure class="card"><figcaption>RIASEC profile</figcaption>${code}</figure>`;
  const barW = 200;
  const rowH = 22;
  const labelW = 110;
  const width = labelW + barW + 80;
  const height = rows.length * rowH + 4;
  const body = rows
    .map((x, i) => {
      const y = i * rowH + 2;
      const fill = x.rank !== null ? BLUES[4] : BLUES[1];
      return (
        `<text x="${labelW - 6}" y="${y + 15}" text-anchor="end">${esc(x.name)}</text><rect x="${labelW}" y="${y + 2}" width="${barW}" height="${rowH - 6}" class="track"/>` +
        `<rect x="${labelW}" y="${y + 2}" width="${Math.round((x.mean / 3) * barW)}" height="${rowH - 6}" fill="${fill}" stroke="#1a1a1a" stroke-width="0.5"/>` +
        `<text x="${labelW + barW + 6}" y="${y + 15}">${x.rank !== null ? `#${esc(x.rank)}` : ''}</text>`
      );
    })
    .join('');
  const title = `RIASEC profile of ${who}`;
  const svg = `<svg class="chart" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}" role="img" aria-label="${esc(title)}"><title>${esc(title)}</title>${body}</svg>`;
  const table =
    '<table class="equiv"><thead><tr><th>Interest</th><th class="n">Rank</th><th>Facet ranges</th></tr></thead><tbody>' +
    rows.map((x) => `<tr><td>${esc(x.name)}</td><td class="n">${x.rank ?? '–'}</td><td>${x.facets.map((f) => `${esc(f.display_name ?? f.short_name)}: ${esc(f.test_taker_score_range ?? '–')}`).join('; ')}</td></tr>`).join('') +
    '</tbody></table>';
  return (
    `<figure class="card"><figcaption>RIASEC profile (#: the service's top three, strongest first)</figcaption>${code}${svg}` +
    `<p class="note">A bar is the mean level of the interest's facets (Low, Medium, High), not the score the service ranks by: a lower-ranked interest can have facets as high or higher.</p>${table}</figure>`
  );
}

function interests(r: JobFitReportView): string {
  const top = byRank(r.career_interests_profile).slice(0, 3);
  if (top.length === 0) return '';
  const items = top
    .map((t) => {
      const facets = facetsOf(t, r.career_interests);
      return `<li><strong>${esc(t.display_name ?? t.short_name ?? '?')}</strong> <span class="note">${esc(t.description)}</span>${facets.length ? `<ul>${facets.map((f) => `<li>${esc(f.display_name ?? f.short_name)}: ${gauge(f.test_taker_score_range)}</li>`).join('')}</ul>` : ''}</li>`;
    })
    .join('');
  return `<figure class="card"><figcaption>Top three career interests</figcaption><ol>${items}</ol></figure>`;
}

function traits(r: JobFitReportView): string {
  const top = byRank(r.personality_traits_profile).slice(0, 5);
  if (top.length === 0) return '';
  const rows = top
    .map((t) => {
      const facets = facetsOf(t, r.personality_traits) as Array<{ display_name?: string | null; short_name?: string | null; anchor_low?: string | null; anchor_high?: string | null; test_taker_score_range?: string | null }>;
      const head = `<tr><th colspan="3">${t.rank ?? '–'}. ${esc(t.display_name ?? t.short_name ?? '?')} <span class="note">${esc(t.description)}</span></th></tr>`;
      return head + facets.map((f) => `<tr><td>${esc(f.display_name ?? f.short_name)}</td><td class="gauge">${gauge(f.test_taker_score_range)}</td><td class="note">${esc(f.anchor_low)} ↔ ${esc(f.anchor_high)}</td></tr>`).join('');
    })
    .join('');
  return `<figure><figcaption>Top five personality traits and their facet ranges</figcaption><table class="traits"><thead><tr><th>Facet</th><th>Range</th><th>From low to high</th></tr></thead><tbody>${rows}</tbody></table></figure>`;
}

function fitBar(p: number | null | undefined): string {
  const v = typeof p === 'number' && Number.isFinite(p) ? Math.max(0, Math.min(100, p)) : 0;
  return `<svg class="fitbar" viewBox="0 0 100 10" width="120" height="12" aria-hidden="true"><rect width="100" height="10" class="track"/><rect width="${v.toFixed(1)}" height="10" fill="${BLUES[3]}" stroke="#1a1a1a" stroke-width="0.4"/></svg>`;
}

/** A job family's name, with its number and zone when another row has the same name (the reference: a family can appear more than once). */
function familyName(j: { job_family_name?: string | null; job_family_number?: string | null; job_family_job_zone?: number | null }, repeated: boolean): string {
  const name = esc(j.job_family_name ?? j.job_family_number ?? '?');
  if (!repeated) return name;
  return `${name} <span class="note">(${[j.job_family_job_zone != null ? `zone ${esc(j.job_family_job_zone)}` : '', esc(j.job_family_number ?? '')].filter(Boolean).join(', ')})</span>`;
}

function occupations(r: JobFitReportView): string {
  const rows = byRank(r.top_fit_occupations).slice(0, 15);
  if (rows.length === 0) return '';
  const seen = new Map<string, number>();
  for (const j of rows) seen.set(String(j.job_family_name), (seen.get(String(j.job_family_name)) ?? 0) + 1);
  const body = rows
    .map(
      (j, i) =>
        `<tr><td class="n">${j.rank ?? i + 1}</td><td>${familyName(j, (seen.get(String(j.job_family_name)) ?? 0) > 1)}</td><td class="n">${esc(j.job_family_job_zone ?? '–')}</td>` +
        `<td>${fitBar(j.job_fit_percentage)}</td><td class="n">${typeof j.job_fit_percentage === 'number' ? `${j.job_fit_percentage.toFixed(1)}%` : '–'}</td><td>${starsHtml(j.job_fit_star_rating)}</td></tr>`,
    )
    .join('');
  return (
    `<figure><figcaption>Top ${rows.length} job families by fit</figcaption><table class="occupations"><thead><tr><th class="n">#</th><th>Job family</th><th class="n">Zone</th><th>Fit</th><th class="n">Fit %</th><th>Stars</th></tr></thead>` +
    `<tbody>${body}</tbody></table></figure>`
  );
}

/** One candidate's section (the report as received; read leniently). */
function jobFitSectionHtml(report: unknown): string {
  const r = (report ?? {}) as JobFitReportView & { scorecard_url?: string | null };
  const name = [r.first_name, r.last_name].filter(Boolean).join(' ') || '(no name)';
  const href = safeHref(r.scorecard_url);
  return (
    `<section class="person"><h2>${esc(name)}</h2>` +
    metaList([
      ['Email', r.email],
      ['Test taker', r.test_taker_id],
      ['Invitation', r.invitation_id],
      ['Custom id', r.custom_id],
      ['Person id', r.person_id],
      ['Team', r.team?.display_name],
      ['Account', r.account?.display_name],
    ]) +
    (href ? `<p><a href="${href}" rel="noopener noreferrer">Scorecard</a></p>` : '') +
    `<div class="cards">${riasecChart(r, name)}${interests(r)}</div>${traits(r)}${occupations(r)}</section>\n`
  );
}

/** The page's start, before the first section. */
function jobFitPageHead(o: { count?: number; generatedAt: Date; source: string; mode?: string }): string {
  const title = o.count === 1 ? 'Job-fit report' : o.count === undefined ? 'Job-fit reports' : `Job-fit reports (${fmt(o.count)} candidates)`;
  return (
    pageHead(title) +
    `<header><h1>${esc(title)}</h1>${metaList([
      ['Generated', o.generatedAt.toISOString().replace('T', ' ').replace(/\.\d+Z$/, ' UTC')],
      ['Data from', o.source],
      ['Mode', o.mode],
    ])}<p class="note">Facet ranges: Low / Medium / High (interests), Less / Moderately / More Pronounced (traits), drawn as one to three filled squares.</p></header>\n`
  );
}

/**
 * `job-fit … -o html` for many ids: a ListWriter that writes the page's start
 * at once, each report's section as it arrives (memory stays flat at any
 * count), and the end (with the ids whose report was not ready) on end().
 * On a terminal the sections wait for end(), so a progress bar on stderr
 * never interleaves with them.
 */
export function createJobFitHtmlWriter(
  ctx: OutputCtx,
  head: Parameters<typeof jobFitPageHead>[0],
  notReady: () => readonly number[],
): ListWriter {
  const out = ctx.io.stdout;
  const held: string[] | undefined = ctx.io.stdoutIsTTY ? [] : undefined;
  let count = 0;
  let full = false;
  const put = (s: string): boolean => {
    if (held) {
      held.push(s);
      return true;
    }
    const ok = out.write(s);
    full ||= !ok;
    return ok;
  };
  put(jobFitPageHead(head));
  return {
    format: 'html',
    get count() {
      return count;
    },
    write(item) {
      count++;
      return put(jobFitSectionHtml(item));
    },
    drained() {
      // As the other list writers (output.ts): a drain already past, or a
      // stdout whose write failed (a full disk), is not waited for.
      const wasFull = full;
      full = false;
      return untilDrained(out, wasFull, () => ctx.io.stdoutError?.());
    },
    end() {
      const later = notReady();
      if (later.length > 0) {
        put(`<section class="later"><h2>Not available yet</h2><p>No job-fit report yet (Personality and Career Interests not both complete) for test taker${later.length === 1 ? '' : 's'} ${later.map((id) => esc(id)).join(', ')}.</p></section>\n`);
      }
      if (count === 0 && later.length === 0) put('<p>No reports.</p>\n');
      put(PAGE_TAIL);
      if (held) out.write(held.join(''));
    },
  };
}

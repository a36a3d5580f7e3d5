/**
 * `job-fit ID... -o html`: one section per candidate in one page (a page
 * break between them in print), in the group report's style: the RIASEC
 * profile, the top three interests and the top five traits with their facet
 * ranges, and the 15 top job families with stars and fit bars.
 *
 * Read as leniently as the terminal view (src/format/jobfit-view.ts): any
 * field may be missing or of another type and the section still renders; every
 * value reaches the page through the `html` tag, escaped (./html.ts).
 */
import { byRank, type JobFitReportView, type NamedView as Named, readJobFitReport, type WithFacetsView as WithFacets } from '../jobfit-view.js';
import { untilDrained } from '../drain.js';
import type { ListWriter, OutputCtx } from '../output.js';
import { type Html, html } from './html.js';
import { BLUES, fmt, metaList, PAGE_TAIL, pageHead, safeHref, starsHtml, svg } from './page.js';

const LEVELS: Record<string, number> = { low: 1, 'less pronounced': 1, medium: 2, 'moderately pronounced': 2, high: 3, 'more pronounced': 3 };
const levelOf = (range: string | null | undefined): number => LEVELS[(range ?? '').toLowerCase()] ?? 0;

/** A three-step gauge: filled squares in the dark blue, empty ones outlined; the range's words beside it. */
function gauge(range: string | null | undefined): Html {
  const n = levelOf(range);
  const cells = [0, 1, 2].map((i) => html`<rect x="${i * 12}" y="1" width="10" height="10" fill="${i < n ? BLUES[4] : '#fff'}" stroke="#1a1a1a" stroke-width="0.8"/>`);
  return html`<svg class="gauge" viewBox="0 0 36 12" width="36" height="12" aria-hidden="true">${cells}</svg> ${range ?? '–'}`;
}

/** A rank as shown: the number, or the dash. */
const rankText = (rank: number | null | undefined, fallback: number | string = '–') => (typeof rank === 'number' ? fmt(rank) : String(fallback));

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
const RIASEC_LEGEND = html`<p class="note">The code is the three strongest of six interest types, strongest first: <b>R</b> Realistic (hands-on), <b>I</b> Investigative (analytical), <b>A</b> Artistic (creative), <b>S</b> Social (helping), <b>E</b> Enterprising (persuading, leading), <b>C</b> Conventional (organising).</p>`;

/** The six interests as bars of their mean facet level (Low 1 … High 3), the top three ranked and darker. */
function riasecChart(r: JobFitReportView, who: string): Html {
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
  const code = r.riasec_profile ? html`<p>RIASEC code <span class="riasec">${r.riasec_profile}</span></p>${RIASEC_LEGEND}` : undefined;
  if (rows.length === 0) return html`<figure class="card"><figcaption>RIASEC profile</figcaption>${code}</figure>`;
  const barW = 200;
  const rowH = 22;
  const labelW = 110;
  const body = rows.map((x, i) => {
    const y = i * rowH + 2;
    const fill = x.rank !== null ? BLUES[4] : BLUES[1];
    return html`<text x="${labelW - 6}" y="${y + 15}" text-anchor="end">${x.name}</text><rect x="${labelW}" y="${y + 2}" width="${barW}" height="${rowH - 6}" class="track"/><rect x="${labelW}" y="${y + 2}" width="${Math.round((x.mean / 3) * barW)}" height="${rowH - 6}" fill="${fill}" stroke="#1a1a1a" stroke-width="0.5"/><text x="${labelW + barW + 6}" y="${y + 15}">${x.rank !== null ? `#${rankText(x.rank)}` : ''}</text>`;
  });
  const chart = svg(`RIASEC profile of ${who}`, labelW + barW + 80, rows.length * rowH + 4, body);
  const facetText = (x: (typeof rows)[number]) => x.facets.map((f) => `${f.display_name ?? f.short_name ?? ''}: ${f.test_taker_score_range ?? '–'}`).join('; ');
  const table = html`<table class="equiv"><thead><tr><th>Interest</th><th class="n">Rank</th><th>Facet ranges</th></tr></thead><tbody>${rows.map((x) => html`<tr><td>${x.name}</td><td class="n">${rankText(x.rank)}</td><td>${facetText(x)}</td></tr>`)}</tbody></table>`;
  const note = html`<p class="note">A bar is the mean level of the interest's facets (Low, Medium, High), not the score the service ranks by: a lower-ranked interest can have facets as high or higher.</p>`;
  return html`<figure class="card"><figcaption>RIASEC profile (#: the service's top three, strongest first)</figcaption>${code}${chart}${note}${table}</figure>`;
}

function interests(r: JobFitReportView): Html | undefined {
  const top = byRank(r.career_interests_profile).slice(0, 3);
  if (top.length === 0) return undefined;
  const items = top.map((t) => {
    const facets = facetsOf(t, r.career_interests);
    const list = facets.length ? html`<ul>${facets.map((f) => html`<li>${f.display_name ?? f.short_name}: ${gauge(f.test_taker_score_range)}</li>`)}</ul>` : undefined;
    return html`<li><strong>${t.display_name ?? t.short_name ?? '?'}</strong> <span class="note">${t.description}</span>${list}</li>`;
  });
  return html`<figure class="card"><figcaption>Top three career interests</figcaption><ol>${items}</ol></figure>`;
}

function traits(r: JobFitReportView): Html | undefined {
  const top = byRank(r.personality_traits_profile).slice(0, 5);
  if (top.length === 0) return undefined;
  const rows = top.map((t) => {
    const facets = facetsOf(t, r.personality_traits);
    const head = html`<tr><th colspan="3">${rankText(t.rank)}. ${t.display_name ?? t.short_name ?? '?'} <span class="note">${t.description}</span></th></tr>`;
    return [head, ...facets.map((f) => html`<tr><td>${f.display_name ?? f.short_name}</td><td class="gauge">${gauge(f.test_taker_score_range)}</td><td class="note">${f.anchor_low} ↔ ${f.anchor_high}</td></tr>`)];
  });
  return html`<figure><figcaption>Top five personality traits and their facet ranges</figcaption><table class="traits"><thead><tr><th>Facet</th><th>Range</th><th>From low to high</th></tr></thead><tbody>${rows}</tbody></table></figure>`;
}

function fitBar(p: number | null | undefined): Html {
  const v = typeof p === 'number' ? Math.max(0, Math.min(100, p)) : 0;
  return html`<svg class="fitbar" viewBox="0 0 100 10" width="120" height="12" aria-hidden="true"><rect width="100" height="10" class="track"/><rect width="${v.toFixed(1)}" height="10" fill="${BLUES[3]}" stroke="#1a1a1a" stroke-width="0.4"/></svg>`;
}

/** A job family's name, with its zone and number when another row has the same name (the reference: a family can appear more than once). */
function familyName(j: { job_family_name?: string | null; job_family_number?: string | null; job_family_job_zone?: number | null }, repeated: boolean): Html {
  const name = j.job_family_name ?? j.job_family_number ?? '?';
  if (!repeated) return html`${name}`;
  const which = [typeof j.job_family_job_zone === 'number' ? `zone ${j.job_family_job_zone}` : '', j.job_family_number ?? ''].filter(Boolean).join(', ');
  return html`${name} <span class="note">(${which})</span>`;
}

function occupations(r: JobFitReportView): Html | undefined {
  const rows = byRank(r.top_fit_occupations).slice(0, 15);
  if (rows.length === 0) return undefined;
  const named = new Map<string, number>();
  for (const j of rows) named.set(String(j.job_family_name), (named.get(String(j.job_family_name)) ?? 0) + 1);
  const body = rows.map(
    (j, i) =>
      html`<tr><td class="n">${rankText(j.rank, i + 1)}</td><td>${familyName(j, (named.get(String(j.job_family_name)) ?? 0) > 1)}</td><td class="n">${rankText(j.job_family_job_zone)}</td><td>${fitBar(j.job_fit_percentage)}</td><td class="n">${typeof j.job_fit_percentage === 'number' ? `${j.job_fit_percentage.toFixed(1)}%` : '–'}</td><td>${starsHtml(j.job_fit_star_rating)}</td></tr>`,
  );
  return html`<figure><figcaption>Top ${rows.length} job families by fit</figcaption><table class="occupations"><thead><tr><th class="n">#</th><th>Job family</th><th class="n">Zone</th><th>Fit</th><th class="n">Fit %</th><th>Stars</th></tr></thead><tbody>${body}</tbody></table></figure>`;
}

/** One candidate's section (the report as received; read leniently). */
function jobFitSectionHtml(report: unknown): Html {
  const r = readJobFitReport(report);
  const name = [r.first_name, r.last_name].filter(Boolean).join(' ') || '(no name)';
  const href = safeHref(r.scorecard_url);
  const meta = metaList([
    ['Email', r.email],
    ['Test taker', r.test_taker_id],
    ['Invitation', r.invitation_id],
    ['Custom id', r.custom_id],
    ['Person id', r.person_id],
    ['Team', r.team?.display_name],
    ['Account', r.account?.display_name],
  ]);
  const link = href ? html`<p><a href="${href}" rel="noopener noreferrer">Scorecard</a></p>` : undefined;
  return html`<section class="person"><h2>${name}</h2>${meta}${link}<div class="cards">${riasecChart(r, name)}${interests(r)}</div>${traits(r)}${occupations(r)}</section>
`;
}

/** The page's start, before the first section. */
function jobFitPageHead(o: { count?: number; generatedAt: Date; source: string; mode?: string }): Html {
  const title = o.count === 1 ? 'Job-fit report' : o.count === undefined ? 'Job-fit reports' : `Job-fit reports (${fmt(o.count)} candidates)`;
  const meta = metaList([
    ['Generated', o.generatedAt.toISOString().replace('T', ' ').replace(/\.\d+Z$/, ' UTC')],
    ['Data from', o.source],
    ['Mode', o.mode],
  ]);
  return html`${pageHead(title)}<header><h1>${title}</h1>${meta}<p class="note">Facet ranges: Low / Medium / High (interests), Less / Moderately / More Pronounced (traits), drawn as one to three filled squares.</p></header>
`;
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
  const put = (h: Html): boolean => {
    const s = h.toString();
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
        const ids = later.join(', ');
        put(html`<section class="later"><h2>Not available yet</h2><p>No job-fit report yet (Personality and Career Interests not both complete) for test taker${later.length === 1 ? '' : 's'} ${ids}.</p></section>
`);
      }
      if (count === 0 && later.length === 0)
        put(html`<p>No reports.</p>
`);
      put(PAGE_TAIL);
      if (held) out.write(held.join(''));
    },
  };
}

/**
 * `report -o html`: the group report as one page a hiring manager opens.
 * Per group: the funnel, the five-star distribution, a job-fit % histogram
 * with the median marked, the top RIASEC codes, and the candidates ranked by
 * job fit (the top N, or all) linked to their scorecards; totals across
 * groups first. Each chart has a table beside it that says the same. Every
 * value reaches the page through the `html` tag, escaped (./html.ts); a
 * number is shown only when it is one (a name, a code or a key is a
 * stranger's text).
 */
import { type Html, html } from './html.js';
import { BIN_LABELS, BLUES, bandOf, fmt, hbarSvg, histogramSvg, metaList, PAGE_TAIL, pageHead, pct, safeHref, starsHtml } from './page.js';

/**
 * The statistics of one group as the page reads them: GroupStats of
 * src/export/group-report.ts (format/ may not import export/; this is the
 * part of it the page draws).
 */
export interface GroupStatsView {
  key: string | number | null;
  name: string;
  invited: number;
  accepted: number;
  completed: number;
  stars: Record<'1' | '2' | '3' | '4' | '5', number>;
  median_job_fit_percentage: number | null;
  top_riasec: ReadonlyArray<{ code: string; count: number }>;
}

export interface RankedCandidate {
  test_taker_id: number;
  name: string;
  job_fit_percentage: number | null;
  five_star_score: number | null;
  riasec_profile: string | null;
  scorecard_url: string | null;
}

export interface GroupPageData {
  stats: GroupStatsView;
  /** Test takers per 10-point job-fit bin (binOf). */
  bins: readonly number[];
  /** Ranked best first, already cut to the top N. */
  ranked: readonly RankedCandidate[];
  /** How many could be ranked in all (for "top 25 of 312"). */
  rankable: number;
}

export interface GroupReportPageData {
  scoreProfile: string;
  groupBy: 'team' | 'custom_id';
  generatedAt: Date;
  /** "embedded stub" or the service's address. */
  source: string;
  account?: string;
  mode?: string;
  team?: number;
  top: number | 'all';
  groups: readonly GroupPageData[];
  total: { stats: GroupStatsView; bins: readonly number[] };
}

const STAR_KEYS = ['5', '4', '3', '2', '1'] as const;

const percent = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? `${v.toFixed(1)}%` : '–');
const median = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? `${v}%` : '–');

function funnel(s: GroupStatsView, title: string): Html {
  const rows = [
    { label: 'Invited', value: s.invited, note: `${fmt(s.invited)}`, fill: BLUES[1] },
    { label: 'Started', value: s.accepted, note: `${fmt(s.accepted)} (${pct(s.accepted, s.invited)})`, fill: BLUES[2] },
    { label: 'Completed', value: s.completed, note: `${fmt(s.completed)} (${pct(s.completed, s.invited)})`, fill: BLUES[4] },
  ];
  const table = html`<table class="equiv"><thead><tr><th>Step</th><th class="n">People</th><th class="n">Of invited</th></tr></thead><tbody>${rows.map((r) => html`<tr><td>${r.label}</td><td class="n">${fmt(r.value)}</td><td class="n">${pct(r.value, s.invited)}</td></tr>`)}</tbody></table>`;
  const max = typeof s.invited === 'number' && Number.isFinite(s.invited) ? Math.max(1, s.invited) : 1;
  return html`<figure class="card"><figcaption>Funnel</figcaption>${hbarSvg(title, rows, { max })}${table}</figure>`;
}

function starChart(s: GroupStatsView, title: string): Html {
  const count = (k: (typeof STAR_KEYS)[number]) => s.stars?.[k];
  const rows = STAR_KEYS.map((k) => ({ label: '★'.repeat(Number(k)), value: count(k), note: `${fmt(count(k))} (${pct(count(k), s.completed)})`, fill: BLUES[Number(k) - 1] }));
  const table = html`<table class="equiv"><thead><tr><th>Stars</th><th class="n">Test takers</th><th class="n">Share</th></tr></thead><tbody>${STAR_KEYS.map((k) => html`<tr><td>${k} of 5</td><td class="n">${fmt(count(k))}</td><td class="n">${pct(count(k), s.completed)}</td></tr>`)}</tbody></table>`;
  return html`<figure class="card"><figcaption>Five-star distribution</figcaption>${hbarSvg(title, rows)}${table}</figure>`;
}

function histogram(s: GroupStatsView, bins: readonly number[], title: string): Html {
  const m = s.median_job_fit_percentage;
  const table = html`<table class="equiv"><thead><tr><th>Job fit</th><th class="n">Test takers</th></tr></thead><tbody>${bins.map((n, i) => html`<tr><td>${BIN_LABELS[i]}</td><td class="n">${fmt(n)}</td></tr>`)}</tbody></table><p class="note">Median job fit: <strong>${median(m)}</strong></p>`;
  return html`<figure class="card"><figcaption>Job fit % (median marked)</figcaption>${histogramSvg(title, bins, m)}${table}</figure>`;
}

function riasec(s: GroupStatsView): Html {
  const codes = s.top_riasec ?? [];
  const items = codes.length
    ? html`<ol>${codes.map((r) => html`<li><strong>${r.code}</strong>: ${fmt(r.count)} test taker${r.count === 1 ? '' : 's'}</li>`)}</ol>`
    : html`<p class="note">No RIASEC codes yet.</p>`;
  return html`<figure class="card"><figcaption>Top RIASEC codes</figcaption>${items}</figure>`;
}

function rankedRow(c: RankedCandidate, i: number): Html {
  const href = safeHref(c.scorecard_url);
  const name = c.name || `test taker ${c.test_taker_id}`;
  const band = bandOf(c.five_star_score);
  const who = href ? html`<a href="${href}" rel="noopener noreferrer">${name}</a>` : name;
  return html`<tr><td class="n">${i + 1}</td><td>${who}</td><td class="n">${c.test_taker_id}</td><td class="n">${percent(c.job_fit_percentage)}</td><td>${starsHtml(c.five_star_score)}</td><td><span class="band ${band.cls}">${band.name}</span></td><td>${c.riasec_profile ?? '–'}</td></tr>`;
}

function rankedTable(g: GroupPageData, top: number | 'all'): Html {
  if (g.ranked.length === 0) return html`<p class="note">No scored candidates yet.</p>`;
  const what = top === 'all' || g.rankable <= g.ranked.length ? `All ${fmt(g.rankable)}` : `Top ${fmt(g.ranked.length)} of ${fmt(g.rankable)}`;
  return html`<table class="ranked"><caption class="note">${what} candidates by job fit % (names link to the scorecard).</caption><thead><tr><th class="n">#</th><th>Candidate</th><th class="n">Test taker</th><th class="n">Job fit</th><th>Stars</th><th>Band</th><th>RIASEC</th></tr></thead><tbody>${g.ranked.map(rankedRow)}</tbody></table>`;
}

function groupTitle(s: GroupStatsView, groupBy: 'team' | 'custom_id'): string {
  const key = s.key !== null && s.name !== String(s.key) ? ` (${groupBy === 'team' ? 'team ' : ''}${s.key})` : '';
  return `${s.name}${key}`;
}

function groupSection(g: GroupPageData, d: GroupReportPageData): Html {
  const name = groupTitle(g.stats, d.groupBy);
  const cards = [funnel(g.stats, `Funnel of ${name}`), starChart(g.stats, `Five-star distribution of ${name}`), histogram(g.stats, g.bins, `Job fit % of ${name}`), riasec(g.stats)];
  return html`<section class="group"><h2>${name}</h2><div class="cards">${cards}</div><h3>Candidates ranked by job fit</h3>${rankedTable(g, d.top)}</section>
`;
}

function totalsTable(d: GroupReportPageData): Html {
  const row = (s: GroupStatsView, label: string, cls?: string) =>
    html`<tr class="${cls}"><td>${label}</td><td class="n">${fmt(s.invited)}</td><td class="n">${fmt(s.accepted)}</td><td class="n">${fmt(s.completed)}</td>${STAR_KEYS.map((k) => html`<td class="n">${fmt(s.stars?.[k])}</td>`)}<td class="n">${median(s.median_job_fit_percentage)}</td><td>${(s.top_riasec ?? []).map((r) => r.code).join(', ') || '–'}</td></tr>`;
  const groups = d.groups.length;
  return html`<table class="totals"><thead><tr><th>Group</th><th class="n">Invited</th><th class="n">Started</th><th class="n">Completed</th>${STAR_KEYS.map((k) => html`<th class="n">${k}★</th>`)}<th class="n">Median fit</th><th>Top RIASEC</th></tr></thead><tbody>${d.groups.map((g) => row(g.stats, groupTitle(g.stats, d.groupBy)))}${row(d.total.stats, `All ${groups} group${groups === 1 ? '' : 's'}`, 'total')}</tbody></table>`;
}

/** The whole page, one string (a page of the default top 25 stays small at any number of test takers). */
export function renderGroupReportHtml(d: GroupReportPageData): string {
  const title = `Group report · score profile ${d.scoreProfile}`;
  const t = d.total.stats;
  const overview = html`<section class="totals"><h2>All groups</h2><div class="cards">${funnel(t, 'Funnel of all groups')}${histogram(t, d.total.bins, 'Job fit % of all groups')}</div>${totalsTable(d)}</section>
`;
  const meta = metaList([
    ['Generated', d.generatedAt.toISOString().replace('T', ' ').replace(/\.\d+Z$/, ' UTC')],
    ['Data from', d.source],
    ['Mode', d.mode],
    ['Account', d.account],
    ['Grouped by', d.groupBy === 'team' ? 'team' : 'custom id'],
    ['Team', d.team],
    ['Candidates per group', d.top === 'all' ? 'all' : `top ${d.top}`],
  ]);
  const empty = d.groups.length === 0 ? html`<p>No invitations matched.</p>` : undefined;
  return html`${pageHead(title)}<header><h1>${title}</h1>${meta}<p class="note">Invited: invitations in the group. Started: invitations with a test taker. Completed: test takers whose scorecard for this score profile has a five-star score. Bands: Strong = 4–5 stars, Moderate = 3, Weak = 1–2.</p></header>
${overview}${d.groups.map((g) => groupSection(g, d))}${empty}${PAGE_TAIL}`.toString();
}

/**
 * The fairness report as one self-contained page (-o html): per section a
 * chart of impact ratios with the four-fifths line, the counts table, then
 * the method in plain words. Markup only through the `html` tag
 * (src/format/html/html.ts): every value from the file (category names) and
 * from the service is escaped by construction. The file is named by its SHA-256, never its
 * path. Six groups print on two sheets at most (test/fairness/fairness-html.test.ts).
 */
import { html, type Html, style } from '../format/html/html.js';
import { BLUES, MARK, PAGE_TAIL, fmt, metaList, pageHead } from '../format/html/page.js';
import type { GroupRow, Section } from './analysis.js';
import type { PageMeta } from './run.js';
import type { FairnessReport } from './report.js';

const pct = (v: number | null): string => (v === null ? '–' : `${(v * 100).toFixed(1)}%`);
const ratio = (v: number | null): string => (v === null ? '–' : v.toFixed(3));
const pval = (v: number | null): string => (v === null ? '–' : v < 0.0001 ? '<0.0001' : v.toFixed(4));
const num = (v: number | null): string => (v === null ? '–' : fmt(v));

const CAUTIONS: Record<string, string> = {
  expected_under_5: 'an expected count under 5',
  flips_if_one_person_moves: 'flips if one person moves',
};

/** Horizontal bars of the impact ratios, the 0.8 line dashed and labelled. */
function ratioChart(s: Section): Html {
  const rows = s.groups.filter((g) => g.impact_ratio !== null);
  if (rows.length === 0) return html`<p class="note">No impact ratios in this section (see the table).</p>`;
  const labelW = 250;
  const w = 640;
  const barW = w - labelW - 60;
  const max = Math.max(1, ...rows.map((g) => g.impact_ratio!));
  const x = (v: number) => labelW + (v / max) * barW;
  const h = 22;
  const top = 18;
  const height = top + rows.length * h + 8;
  const bars = rows.map((g, i) => {
    const y = top + i * h;
    const below = g.below_four_fifths === true;
    const label = g.label.length > 40 ? `${g.label.slice(0, 39)}…` : g.label;
    return html`<text x="${labelW - 6}" y="${y + 14}" text-anchor="end">${label}</text><rect x="${labelW}" y="${y + 3}" width="${Math.max(1, x(g.impact_ratio!) - labelW).toFixed(1)}" height="${h - 8}" fill="${below ? BLUES[4] : BLUES[1]}" stroke="#1a1a1a" stroke-width="0.5"/><text x="${(x(g.impact_ratio!) + 4).toFixed(1)}" y="${y + 14}">${ratio(g.impact_ratio)}${below ? ' below 0.8' : ''}</text>`;
  });
  const x8 = x(0.8).toFixed(1);
  const line = html`<line x1="${x8}" x2="${x8}" y1="${top - 4}" y2="${height - 4}" stroke="${MARK}" stroke-width="2" stroke-dasharray="5 3"/><text class="mark" x="${x8}" y="11" text-anchor="middle">0.8 (four fifths)</text>`;
  const title = `Impact ratios by ${s.by.join(' × ')}: selection rate of each group divided by the highest`;
  return html`<figure><svg class="chart" viewBox="0 0 ${w} ${height}" width="${w}" height="${height}" role="img" aria-label="${title}"><title>${title}</title>${bars}${line}</svg></figure>`;
}

function statusText(g: GroupRow): Html | string {
  switch (g.status) {
    case 'highest':
      return 'highest rate (1.000)';
    case 'fewer_than_min_group':
      return 'not shown: too few people';
    case 'under_exclude_share':
      return 'left out: small share';
    case 'undisclosed':
      return 'no answer: not compared';
    case 'no_one_scored':
      return 'nobody scored';
    default:
      return g.below_four_fifths ? html`<strong>below 0.8</strong>` : 'at or above 0.8';
  }
}

function countsTable(s: Section, completion: boolean): Html {
  const completionHead = completion ? html`<th class="n">Completed</th><th class="n">Completion ratio</th>` : '';
  const head = html`<thead><tr><th>Group</th><th class="n">People</th>${completionHead}<th class="n">Scored</th><th class="n">Selected</th><th class="n">Impact ratio</th><th>Four-fifths rule</th><th class="n">Fisher p</th><th>Caution</th></tr></thead>`;
  const body = s.groups.map((g) => {
    const hidden = g.status === 'fewer_than_min_group';
    const c = completion ? html`<td class="n">${hidden ? '' : `${num(g.completed)} (${pct(g.completion_rate)})`}</td><td class="n">${ratio(g.completion_impact_ratio)}</td>` : '';
    return html`<tr><td>${g.label}</td><td class="n">${hidden ? g.size : num(g.invited)}</td>${c}<td class="n">${hidden ? '' : num(g.scored)}</td><td class="n">${hidden ? '' : `${num(g.selected)} (${pct(g.selection_rate)})`}</td><td class="n">${ratio(g.impact_ratio)}</td><td>${statusText(g)}</td><td class="n">${pval(g.fisher_p)}</td><td>${g.cautions.map((k) => CAUTIONS[k]).join('; ')}</td></tr>`;
  });
  return html`<table>${head}<tbody>${body}</tbody></table>`;
}

function method(r: FairnessReport): Html {
  const selected =
    r.outcome.kind === 'scoring_rate'
      ? `a person counts as selected when their job-fit percentage for the profile is above the median of everyone scored (${r.outcome.median ?? '–'}%); a score equal to the median is not above it. This is the scoring rate of New York City's Local Law 144.`
      : `a person counts as selected when their ${r.outcome.rule}.`
  return html`<section class="method"><h2>How to read this</h2><ul><li><b>Selection rate</b>: selected ÷ scored in the group; ${selected}</li><li><b>Impact ratio</b>: a group’s rate ÷ the highest group’s rate. Under 0.8 is the four-fifths rule’s sign of adverse impact (Uniform Guidelines, 29 CFR 1607.4 D).</li><li><b>Fisher p</b>: Fisher’s exact test (two-sided) of the group against the highest-rate group: how often a difference this large would arise by chance alone. Small numbers make both the ratio and the test unsteady; the caution column says when (an expected count under 5 in a cell, or a finding that one person would change).</li><li><b>Completion</b>: people who finished every assigned assessment ÷ people invited. Dropping out more in one group is impact too.</li><li>Groups of fewer than ${r.rules.min_group} people are shown as “fewer than ${r.rules.min_group}” and not compared, so that no one’s answer can be read off the page. People who did not answer are counted but not compared.</li><li>This is evidence to look into, not a finding of discrimination. Your legal counsel decides what it means.</li></ul></section>`;
}

/** The counts table is wide: a smaller type keeps it within the page (and the sheet). */
const STYLE = style`section.fair table{font-size:11.5px}section.fair td,section.fair th{padding:2px 4px}section.fair td.n{white-space:nowrap}`;

export function renderFairnessHtml(r: FairnessReport, page: PageMeta): string {
  const completion = r.people.completed !== null;
  const f = r.self_identification;
  const p = r.people;
  const head = html`<h1>Adverse impact: score profile ${r.score_profile}</h1>${metaList([
    ['Generated', r.generated_at.replace('T', ' ').replace(/\.\d+Z$/, ' UTC')],
    ['Data', page.source],
    ['Account', page.account],
    ['Mode', page.mode],
    ['Team', r.team_id],
    ['Self-identification file (SHA-256)', f.sha256],
  ])}<p>${fmt(p.invited)} people invited: ${fmt(p.with_a_row)} with a row in the file (joined on ${f.join}), ${fmt(p.without_a_row)} without one; ${completion ? `${fmt(p.completed ?? 0)} of those with a row completed every assessment; ` : ''}${fmt(p.scored)} scored. The file has ${fmt(f.rows)} rows, ${fmt(f.rows_matching_nobody)} matching nobody. Selected: ${r.outcome.rule}.</p>`;
  const sections = r.sections.map(
    (s) =>
      html`<section class="fair"><h2>By ${s.by.join(' × ')}</h2>${ratioChart(s)}${countsTable(s, completion)}${s.left_out.length ? html`<p class="note">Left out of the ratios: ${s.left_out.join('; ')}.</p>` : ''}</section>
`,
  );
  return html`${pageHead(`Adverse impact: ${r.score_profile}`)}${STYLE}${head}
${sections}
${method(r)}
${PAGE_TAIL}`.toString();
}

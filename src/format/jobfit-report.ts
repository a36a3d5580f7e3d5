/**
 * A job_fit_report rendered for a person at a terminal: who it is, the RIASEC
 * code, the top 3 interests, the top 5 traits with their facet ranges, and the
 * 15 top job families with a fit bar and stars.
 *
 * Fields are read defensively (./jobfit-view.ts): the client passes through
 * what a newer server sends, so any of them may be null, missing or of another
 * type, and the report still renders.
 */
import type { OutputCtx } from './output.js';
import { bar, stars } from './chart.js';
import { type Colors, colorsFor } from './color.js';
import { safeDeep } from './sanitize.js';
import { byRank, type FacetView as Facet, type JobFitReportView, type NamedView as Named, readJobFitReport, type WithFacetsView as WithFacets } from './jobfit-view.js';

export { byRank, type JobFitReportView } from './jobfit-view.js';

export interface ReportOptions {
  /** Terminal width; lines are cut to it. */
  width: number;
  /** Colour allowed (io.colorStdout). */
  color: boolean;
}

function cut(s: string, width: number): string {
  const cps = [...s];
  return cps.length <= width ? s : `${cps.slice(0, Math.max(0, width - 1)).join('')}…`;
}

/** A three-step gauge for a facet range: Low/Less = ■□□, Medium/Moderately = ■■□, High/More = ■■■. */
export function rangeGauge(range: string | null | undefined): string {
  const r = (range ?? '').toLowerCase();
  const level = r.startsWith('high') || r.startsWith('more') ? 3 : r.startsWith('medium') || r.startsWith('moderately') ? 2 : r ? 1 : 0;
  return '■'.repeat(level) + '□'.repeat(3 - level);
}

/** The facets of the full entry matching a profile entry (by id, else short name, else name). */
function facetsOf(entry: Named, all: WithFacets[] | null | undefined): Facet[] {
  const match = (all ?? []).find(
    (d) =>
      (entry.id != null && d.id === entry.id) ||
      (entry.short_name != null && d.short_name === entry.short_name) ||
      (entry.display_name != null && d.display_name?.replace(/ Overall$/, '') === entry.display_name),
  );
  return match?.facets ?? [];
}

function header(r: JobFitReportView, c: Colors, width: number): string[] {
  const name = [r.first_name, r.last_name].filter(Boolean).join(' ') || '(no name)';
  const email = r.email ? cut(`  <${r.email}>`, Math.max(0, width - name.length)) : '';
  const lines = [`${c.bold(name)}${email}`];
  const ids: string[] = [];
  if (r.test_taker_id != null) ids.push(`test taker ${r.test_taker_id}`);
  if (r.invitation_id != null) ids.push(`invitation ${r.invitation_id}`);
  if (r.custom_id) ids.push(`custom id ${r.custom_id}`);
  if (r.person_id) ids.push(`person id ${r.person_id}`);
  if (r.team?.display_name) ids.push(`team ${r.team.display_name}${r.team.id != null ? ` (${r.team.id})` : ''}`);
  if (r.account?.display_name) ids.push(`account ${r.account.display_name}`);
  if (ids.length) lines.push(c.dim(cut(ids.join(' · '), width)));
  return lines;
}

/** "  1. Name  description", the description cut to the width (colour added after cutting). */
function described(prefix: string, name: string, description: string | null | undefined, c: Colors, width: number): string {
  const room = width - [...prefix].length - [...name].length - 2;
  const desc = description && room > 3 ? `  ${c.dim(cut(description, room))}` : '';
  return `${prefix}${c.cyan(name)}${desc}`;
}

function interests(r: JobFitReportView, c: Colors, width: number): string[] {
  const top = byRank(r.career_interests_profile).slice(0, 3);
  if (top.length === 0) return [];
  const out = ['', c.bold('Top career interests')];
  const nameW = Math.max(...top.map((t) => (t.display_name ?? '').length));
  for (const t of top) {
    const name = (t.display_name ?? t.short_name ?? '?').padEnd(nameW);
    out.push(described(`  ${t.rank ?? '-'}. `, name, t.description, c, width));
    const facets = facetsOf(t, r.career_interests);
    if (facets.length) {
      const text = facets.map((f) => `${f.display_name ?? f.short_name}: ${f.test_taker_score_range ?? '-'}`).join(' · ');
      out.push(cut(`     ${text}`, width));
    }
  }
  return out;
}

function traits(r: JobFitReportView, c: Colors, width: number): string[] {
  const top = byRank(r.personality_traits_profile).slice(0, 5);
  if (top.length === 0) return [];
  const out = ['', c.bold('Top personality traits')];
  // One alignment for every trait's facets, so the ranges line up down the page.
  const all = top.flatMap((t) => facetsOf(t, r.personality_traits));
  const fW = Math.max(0, ...all.map((f) => (f.display_name ?? f.short_name ?? '').length));
  const rW = Math.max(0, ...all.map((f) => (f.test_taker_score_range ?? '-').length));
  for (const t of top) {
    out.push(described(`  ${t.rank ?? '-'}. `, t.display_name ?? t.short_name ?? '?', t.description, c, width));
    for (const f of facetsOf(t, r.personality_traits)) {
      const anchors = f.anchor_low || f.anchor_high ? `  ${f.anchor_low ?? ''} ↔ ${f.anchor_high ?? ''}` : '';
      const line = `     ${(f.display_name ?? f.short_name ?? '').padEnd(fW)}  ${rangeGauge(f.test_taker_score_range)} ${(f.test_taker_score_range ?? '-').padEnd(rW)}`;
      out.push(`${line}${c.dim(cut(anchors, Math.max(0, width - [...line].length)))}`.trimEnd());
    }
  }
  return out;
}

function jobFamilies(r: JobFitReportView, c: Colors, width: number): string[] {
  const rows = byRank(r.top_fit_occupations).slice(0, 15);
  if (rows.length === 0) return [];
  const rankW = 3;
  const zoneW = 4;
  const pctW = 6;
  const starW = 5;
  const gaps = 2 * 5;
  const names = rows.map((j) => j.job_family_name ?? j.job_family_number ?? '?');
  let nameW = Math.max(10, ...names.map((n) => [...n].length));
  // The bar takes what is left, 10 to 40 cells; the name gives way first on a narrow terminal.
  let barW = width - rankW - nameW - zoneW - pctW - starW - gaps;
  if (barW < 10) {
    nameW = Math.max(12, nameW - (10 - barW));
    barW = Math.max(10, width - rankW - nameW - zoneW - pctW - starW - gaps);
  }
  barW = Math.min(40, barW);
  const out = ['', c.bold('Top job families')];
  out.push(c.dim(`${'#'.padStart(rankW)}  ${'JOB FAMILY'.padEnd(nameW)}  ${'ZONE'}  ${'FIT'.padEnd(barW + 2 + pctW)}  STARS`));
  rows.forEach((j, i) => {
    const pct = j.job_fit_percentage ?? 0;
    const starsN = j.job_fit_star_rating ?? 0;
    const tone = starsN >= 4 ? c.green : starsN === 3 ? c.yellow : c.red;
    const name = cut(names[i], nameW).padEnd(nameW);
    const zone = (j.job_family_job_zone == null ? '-' : String(j.job_family_job_zone)).padStart(zoneW - 1).padEnd(zoneW);
    const pctText = `${j.job_fit_percentage == null ? '-' : pct.toFixed(1)}%`.padStart(pctW);
    out.push(
      `${String(j.rank ?? i + 1).padStart(rankW)}  ${name}  ${zone}  ${tone(bar(pct / 100, barW))}  ${pctText}  ${c.yellow(stars(starsN))}`,
    );
  });
  return out;
}

/** The whole report as text (one trailing newline). */
export function renderJobFitReport(report: unknown, opts: ReportOptions): string {
  // Every name and description is the service's text: made safe before layout.
  const r = readJobFitReport(safeDeep(report ?? {}));
  const c = colorsFor(opts.color);
  const width = Math.max(40, opts.width);
  const lines = [...header(r, c, width)];
  if (r.riasec_profile) lines.push('', `RIASEC code  ${c.bold(c.cyan(r.riasec_profile))}`);
  lines.push(...interests(r, c, width), ...traits(r, c, width), ...jobFamilies(r, c, width));
  return `${lines.join('\n')}\n`;
}

/** Prints one or more reports on stdout, separated by a rule. */
export function printJobFitReports(ctx: OutputCtx, reports: unknown[]): void {
  const opts = { width: ctx.io.columns, color: ctx.io.colorStdout };
  const rule = `${'─'.repeat(Math.min(opts.width, 80))}\n`;
  reports.forEach((r, i) => {
    if (i > 0) ctx.io.stdout.write(`\n${rule}\n`);
    ctx.io.stdout.write(renderJobFitReport(r, opts));
  });
}

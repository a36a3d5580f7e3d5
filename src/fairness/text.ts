/**
 * The fairness report for a person at a terminal (-o table): one table per
 * section, then what the numbers rest on. Category names come from the
 * employer's file: a stranger's text, shown through the sanitiser.
 */
import type { Session } from '../core/session.js';
import { colorsFor } from '../format/color.js';
import { NUM } from '../format/number.js';
import { safeLine } from '../format/sanitize.js';
import { renderTable } from '../format/table.js';
import type { GroupRow } from './analysis.js';
import type { FairnessReport } from './report.js';

const pct = (v: number | null): string => (v === null ? '–' : `${(v * 100).toFixed(1)}%`);
const ratio = (v: number | null): string => (v === null ? '–' : v.toFixed(3));
const pval = (v: number | null): string => (v === null ? '–' : v < 0.0001 ? '<0.0001' : v.toFixed(4));
const count = (v: number | null): string => (v === null ? '–' : NUM.format(v));

const CAUTION_WORDS: Record<string, string> = {
  expected_under_5: 'expected count under 5 in a cell',
  flips_if_one_person_moves: 'the flag flips if one person moves',
};

const STATUS_WORDS: Record<string, string> = {
  highest: 'highest rate',
  fewer_than_min_group: '',
  under_exclude_share: 'left out (small share)',
  undisclosed: 'not compared',
  no_one_scored: 'nobody scored',
};

function flag(g: GroupRow): string {
  if (g.below_four_fifths === true) return 'BELOW 0.8';
  if (g.status === 'highest') return 'highest';
  if (g.below_four_fifths === false) return 'ok';
  return STATUS_WORDS[g.status] ?? '';
}

function cells(g: GroupRow, completion: boolean) {
  const hidden = g.status === 'fewer_than_min_group';
  return {
    group: safeLine(g.label),
    people: hidden ? String(g.size) : count(g.invited),
    completed: !completion ? 'not counted' : hidden ? '' : `${count(g.completed)} (${pct(g.completion_rate)})`,
    completion_ratio: ratio(g.completion_impact_ratio),
    scored: hidden ? '' : count(g.scored),
    selected: hidden ? '' : `${count(g.selected)} (${pct(g.selection_rate)})`,
    impact_ratio: ratio(g.impact_ratio),
    four_fifths: hidden ? '' : flag(g),
    fisher_p: pval(g.fisher_p),
    caution: g.cautions.map((c) => CAUTION_WORDS[c]).join('; '),
  };
}

const COLUMNS = [
  { key: 'group', header: 'GROUP' },
  { key: 'people', header: 'PEOPLE', align: 'right' as const },
  { key: 'completed', header: 'COMPLETED', align: 'right' as const },
  { key: 'completion_ratio', header: 'COMPL. RATIO', align: 'right' as const },
  { key: 'scored', header: 'SCORED', align: 'right' as const },
  { key: 'selected', header: 'SELECTED', align: 'right' as const },
  { key: 'impact_ratio', header: 'IMPACT RATIO', align: 'right' as const },
  { key: 'four_fifths', header: '4/5 RULE' },
  { key: 'fisher_p', header: 'FISHER P', align: 'right' as const },
  { key: 'caution', header: 'CAUTION' },
];

export function renderFairnessText(ctx: Session, r: FairnessReport): string {
  const c = colorsFor(ctx.io.colorStdout);
  const opts = { tty: ctx.io.stdoutIsTTY, width: ctx.io.columns, color: c, now: ctx.io.now() };
  const completion = r.people.completed !== null;
  const out: string[] = [];
  out.push(c.bold(`Adverse impact: score profile ${safeLine(r.score_profile)}, selected = ${r.outcome.rule}`));
  if (r.outcome.median !== null) out.push(`Median job fit of everyone scored: ${r.outcome.median}% (a score equal to the median is not above it).`);
  for (const s of r.sections) {
    out.push('', c.bold(`By ${s.by.map(safeLine).join(' × ')}`) + (s.highest_selection_rate ? ` (compared with the highest selection rate: ${safeLine(s.highest_selection_rate)})` : ''));
    out.push(renderTable(s.groups.map((g) => cells(g, completion)), COLUMNS, opts).trimEnd());
    if (s.left_out.length) out.push(`Left out of the ratios: ${s.left_out.map(safeLine).join('; ')}.`);
  }
  const p = r.people;
  const f = r.self_identification;
  out.push(
    '',
    `People: ${NUM.format(p.invited)} invited, ${NUM.format(p.with_a_row)} with a row in the file, ${NUM.format(p.without_a_row)} without one (not in any group); ` +
      `${completion ? `${NUM.format(p.completed ?? 0)} of those with a row completed every assessment, ` : ''}${NUM.format(p.scored)} scored.`,
    `File (sha256 ${f.sha256.slice(0, 16)}…, joined on ${f.join}): ${NUM.format(f.rows)} rows, ${NUM.format(f.rows_matching_nobody)} matching nobody` +
      `${f.rows_without_join_value ? `, ${NUM.format(f.rows_without_join_value)} without a ${f.join}` : ''}${f.duplicate_rows ? `, ${NUM.format(f.duplicate_rows)} repeated` : ''}.`,
    `Groups of fewer than ${r.rules.min_group} people are not shown and not compared. Flag: impact ratio under 0.8 (29 CFR 1607.4 D). ` +
      'Adverse impact is evidence to look into, not a finding of discrimination: see docs/fairness.md.',
  );
  return `${out.join('\n')}\n`;
}

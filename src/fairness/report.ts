/**
 * The fairness report as one object: what JSON prints, and what the table,
 * CSV, xlsx and HTML renderings are drawn from. It holds counts, rates and
 * ratios of groups only, and names the self-identification file by its
 * SHA-256, never by its path.
 */
import { type AnalysisInput, type Section, analyse } from './analysis.js';

export interface FairnessReport {
  object: 'fairness_report';
  score_profile: string;
  team_id: number | null;
  generated_at: string;
  self_identification: {
    sha256: string;
    join: string;
    columns: string[];
    rows: number;
    rows_matching_nobody: number;
    rows_without_join_value: number;
    duplicate_rows: number;
  };
  people: {
    invited: number;
    with_a_row: number;
    without_a_row: number;
    completed: number | null;
    scored: number;
  };
  outcome: { kind: string; rule: string; median: number | null };
  rules: { min_group: number; exclude_under: number; four_fifths: 0.8 };
  sections: Section[];
}

export interface ReportMeta {
  scoreProfile: string;
  teamId: number | undefined;
  now: Date;
}

export function buildFairnessReport(a: AnalysisInput, meta: ReportMeta): FairnessReport {
  const { median, sections } = analyse(a);
  const s = a.join.selfId;
  let withRow = 0;
  let completed = 0;
  let scored = 0;
  for (const p of a.join.people.values()) {
    if (p.answers) withRow++;
    // Completion is asked for people with a row only (they are the ones in groups).
    if (p.completed && p.answers) completed++;
    if ((a.outcome.measure === 'stars' ? p.stars : p.fit) !== null) scored++;
  }
  return {
    object: 'fairness_report',
    score_profile: meta.scoreProfile,
    team_id: meta.teamId ?? null,
    generated_at: meta.now.toISOString(),
    self_identification: {
      sha256: s.sha256,
      join: s.join,
      columns: s.columns,
      rows: s.rows,
      rows_matching_nobody: a.join.unmatchedRows(),
      rows_without_join_value: s.rowsWithoutKey,
      duplicate_rows: s.duplicateRows,
    },
    people: { invited: a.join.people.size, with_a_row: withRow, without_a_row: a.join.people.size - withRow, completed: a.completion ? completed : null, scored },
    outcome: { kind: a.outcome.kind, rule: a.outcome.text, median },
    rules: { min_group: a.rules.minGroup, exclude_under: a.rules.excludeUnder, four_fifths: 0.8 },
    sections,
  };
}

/** The flat columns of CSV and xlsx: one row per group per section. */
export const FAIRNESS_CSV_COLUMNS = [
  'section',
  'group',
  'status',
  'size',
  'invited',
  'completed',
  'completion_rate',
  'completion_impact_ratio',
  'completion_below_four_fifths',
  'scored',
  'selected',
  'selection_rate',
  'impact_ratio',
  'below_four_fifths',
  'fisher_p',
  'cautions',
] as const;

export function fairnessCsvRows(r: FairnessReport): Array<Record<string, string | number | boolean | null>> {
  return r.sections.flatMap((s) =>
    s.groups.map((g) => ({
      section: s.by.join(' × '),
      group: g.label,
      status: g.status,
      size: g.size,
      invited: g.invited,
      completed: g.completed,
      completion_rate: g.completion_rate,
      completion_impact_ratio: g.completion_impact_ratio,
      completion_below_four_fifths: g.completion_below_four_fifths,
      scored: g.scored,
      selected: g.selected,
      selection_rate: g.selection_rate,
      impact_ratio: g.impact_ratio,
      below_four_fifths: g.below_four_fifths,
      fisher_p: g.fisher_p,
      cautions: g.cautions.join(';'),
    })),
  );
}

/**
 * From the joined people to the report: one section per --by column, and one
 * for their intersection when two are given (LL144 asks for sex,
 * race/ethnicity and both). Per group: people (invited), completed, scored,
 * selected; the completion rate and the selection rate, each compared with
 * the group with the highest rate (rates.ts); what privacy.ts hides.
 */
import type { FairnessJoin, Person } from './join.js';
import { aboveMedian, sampleMedian } from './median.js';
import { type FairnessOutcome, passes } from './outcome.js';
import { type GroupStatus, type PrivacyRules, fewerThan, statusBefore } from './privacy.js';
import { type Caution, type Comparison, type Count, compareGroups } from './rates.js';

export interface GroupRow {
  /** Column → category, e.g. { sex: "Female", race: "Asian" }; "(undisclosed)" for the undisclosed group. */
  group: Record<string, string>;
  label: string;
  status: GroupStatus;
  /** "fewer than 5" for a hidden group (every number below is then null). */
  size: number | string;
  invited: number | null;
  completed: number | null;
  completion_rate: number | null;
  completion_impact_ratio: number | null;
  completion_below_four_fifths: boolean | null;
  scored: number | null;
  selected: number | null;
  selection_rate: number | null;
  impact_ratio: number | null;
  below_four_fifths: boolean | null;
  fisher_p: number | null;
  cautions: Caution[];
}

export interface Section {
  by: string[];
  highest_selection_rate: string | null;
  highest_completion_rate: string | null;
  groups: GroupRow[];
  /** Groups kept out of the ratios, by label and reason (hidden groups by count only). */
  left_out: string[];
}

interface Tally {
  values: number[];
  undisclosed: boolean;
  people: number;
  completed: number;
  scored: number;
  selected: number;
}

export interface AnalysisInput {
  join: FairnessJoin;
  outcome: FairnessOutcome;
  rules: PrivacyRules;
  /** False with --no-completion: completion is not counted. */
  completion: boolean;
}

/** The score the outcome reads, or null when the person has none. */
const scoreOf = (p: Person, o: FairnessOutcome): number | null => (o.measure === 'stars' ? p.stars : p.fit);

/** LL144's median over everyone scored (with or without a row); null for a threshold outcome. */
function medianOf(people: Iterable<Person>, o: FairnessOutcome): number | null {
  if (o.kind !== 'scoring_rate') return null;
  const xs: number[] = [];
  for (const p of people) if (p.fit !== null) xs.push(p.fit);
  return sampleMedian(xs);
}

function selectedBy(o: FairnessOutcome, median: number | null): (score: number) => boolean {
  if (o.kind === 'threshold') return (s) => passes(o, s);
  return (s) => median !== null && aboveMedian(s, median);
}

function tallySection(people: Iterable<Person>, cols: number[], isSelected: (s: number) => boolean, o: FairnessOutcome): Map<string, Tally> {
  const groups = new Map<string, Tally>();
  for (const p of people) {
    if (!p.answers) continue;
    const values = cols.map((c) => p.answers![c]);
    const undisclosed = values.some((v) => v < 0);
    const key = undisclosed ? 'u' : values.join(',');
    let t = groups.get(key);
    if (!t) groups.set(key, (t = { values, undisclosed, people: 0, completed: 0, scored: 0, selected: 0 }));
    t.people++;
    if (p.completed) t.completed++;
    const s = scoreOf(p, o);
    if (s !== null) {
      t.scored++;
      if (isSelected(s)) t.selected++;
    }
  }
  return groups;
}

function rowOf(t: Tally, label: Record<string, string>, status: GroupStatus, sel: Comparison | null, comp: Comparison | null, a: AnalysisInput): GroupRow {
  const text = t.undisclosed ? UNDISCLOSED_LABEL : Object.values(label).join(' · ');
  const hidden = status === 'fewer_than_min_group';
  const n = (v: number | null): number | null => (hidden ? null : v);
  return {
    group: label,
    label: text,
    status,
    size: hidden ? fewerThan(a.rules) : t.people,
    invited: n(t.people),
    completed: n(a.completion ? t.completed : null),
    completion_rate: n(a.completion && t.people > 0 ? t.completed / t.people : null),
    completion_impact_ratio: comp?.impact_ratio ?? null,
    completion_below_four_fifths: comp?.below_four_fifths ?? null,
    scored: n(t.scored),
    selected: n(t.selected),
    selection_rate: n(t.scored > 0 ? t.selected / t.scored : null),
    impact_ratio: sel?.impact_ratio ?? null,
    below_four_fifths: sel?.below_four_fifths ?? null,
    fisher_p: sel?.fisher_p ?? null,
    cautions: sel?.cautions ?? [],
  };
}

const UNDISCLOSED_LABEL = '(undisclosed)';

function labelOf(t: Tally, cols: number[], a: AnalysisInput): Record<string, string> {
  const s = a.join.selfId;
  return Object.fromEntries(cols.map((c, i) => [s.columns[c], t.undisclosed ? UNDISCLOSED_LABEL : s.categories[c].labels[t.values[i]]]));
}

/** Groups in a stable order: by category order of first appearance in the file, undisclosed last. */
function ordered(groups: Map<string, Tally>, a: AnalysisInput, cols: number[]): Tally[] {
  const s = a.join.selfId;
  const name = (t: Tally) => cols.map((c, i) => s.categories[c].labels[t.values[i]]).join('\u0000');
  return [...groups.values()].sort((x, y) => Number(x.undisclosed) - Number(y.undisclosed) || name(x).localeCompare(name(y)));
}

function section(cols: number[], a: AnalysisInput, median: number | null): Section {
  const tallies = ordered(tallySection(a.join.people.values(), cols, selectedBy(a.outcome, median), a.outcome), a, cols);
  const sectionPeople = tallies.reduce((s, t) => s + t.people, 0);
  const before = tallies.map((t) => statusBefore(t, sectionPeople, a.rules));
  const selCounts: Array<Count | null> = tallies.map((t, i) => (before[i] === null ? { n: t.scored, k: t.selected } : null));
  const compCounts: Array<Count | null> = tallies.map((t, i) => (before[i] === null && a.completion ? { n: t.people, k: t.completed } : null));
  const sel = compareGroups(selCounts);
  const comp = compareGroups(compCounts);
  const rows = tallies.map((t, i) => {
    const status: GroupStatus = before[i] ?? (t.scored === 0 ? 'no_one_scored' : sel[i]?.highest ? 'highest' : 'compared');
    return rowOf(t, labelOf(t, cols, a), status, sel[i], comp[i], a);
  });
  const hidden = rows.filter((r) => r.status === 'fewer_than_min_group').length;
  const leftOut = [
    ...rows.filter((r) => r.status === 'under_exclude_share').map((r) => `${r.label}: under ${Math.round(a.rules.excludeUnder * 1000) / 10}% of the people in this section`),
    ...rows.filter((r) => r.status === 'undisclosed').map(() => `${UNDISCLOSED_LABEL}: no answer to compare`),
    ...rows.filter((r) => r.status === 'no_one_scored').map((r) => `${r.label}: nobody scored`),
    ...(hidden > 0 ? [`${hidden} group${hidden === 1 ? "" : "s"} of ${fewerThan(a.rules)} people`] : []),
  ];
  const highest = (cs: Array<Comparison | null>) => {
    const i = cs.findIndex((c) => c?.highest && c.rate !== null && c.rate > 0);
    return i >= 0 ? rows[i].label : null;
  };
  return { by: cols.map((c) => a.join.selfId.columns[c]), highest_selection_rate: highest(sel), highest_completion_rate: a.completion ? highest(comp) : null, groups: rows, left_out: leftOut };
}

/** Every section: one per --by column, then the intersection of two. */
export function analyse(a: AnalysisInput): { median: number | null; sections: Section[] } {
  const median = medianOf(a.join.people.values(), a.outcome);
  const n = a.join.selfId.columns.length;
  const sets = n === 1 ? [[0]] : [...Array.from({ length: n }, (_, i) => [i]), Array.from({ length: n }, (_, i) => i)];
  return { median, sections: sets.map((cols) => section(cols, a, median)) };
}

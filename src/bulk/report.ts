/**
 * What a person reads about a file before anything is sent: how each header
 * was read, how the team, template and assessment cells were read, and the
 * invalid rows grouped by reason (a report that scales with attention, not
 * with the file).
 */
import { NUM } from '../format/number.js';
import type { AccountData } from './account.js';
import type { ColumnMapping, Field } from './columns.js';
import type { RowValidator } from './validate.js';

export interface MappingReport {
  /** Every header cell: the field it was read as, or null (carried through untouched). */
  columns: Array<{ column: string; field: Field | null; note?: string }>;
  /** Distinct team, template and assessment cells and what they became. */
  values: Array<{ field: Field; cell: string; read: string }>;
}

export function describeMapping(m: ColumnMapping, validator: RowValidator, account: AccountData): MappingReport {
  const fieldOf = new Map<number, Field>();
  for (const [f, i] of Object.entries(m.index) as Array<[Field, number]>) fieldOf.set(i, f);
  const columns = m.header.map((h, i) => {
    const field = fieldOf.get(i) ?? null;
    const like = m.resembles.get(i);
    const note = like ? `looks like ${like} but is not read as it; --map "${h.trim()}=${like}" to use it` : undefined;
    return note ? { column: h, field, note } : { column: h, field };
  });
  const name = (field: Field, id: number): string => {
    if (field === 'team') return `${account.teamsById.get(id)?.display_name ?? 'team'} (${id})`;
    if (field === 'email_template') return `${account.templatesById.get(id)?.display_name ?? 'template'} (${id})`;
    return `${account.assessmentNames.get(id) ?? 'test'} (${id})`;
  };
  const values: MappingReport['values'] = [];
  const perField = new Map<Field, number>();
  for (const { field, raw, read } of validator.valuesRead()) {
    const n = (perField.get(field) ?? 0) + 1;
    perField.set(field, n);
    if (n > 20) continue;
    const text = read.ok ? (Array.isArray(read.value) ? read.value.map((id) => name(field, id)).join(', ') : name(field, read.value)) : `not read: ${read.reason}`;
    values.push({ field, cell: raw, read: text });
  }
  return { columns, values };
}

/** The mapping as text: one line per column, then one per distinct value read. */
export function formatMapping(r: MappingReport): string {
  const lines = ['Columns:'];
  const width = Math.min(30, Math.max(...r.columns.map((c) => c.column.length + 2)));
  for (const c of r.columns) {
    const col = `"${c.column}"`.padEnd(width);
    lines.push(`  ${col} → ${c.field ?? `carried through untouched${c.note ? ` (${c.note})` : ''}`}`);
  }
  if (r.values.length) {
    lines.push('Values:');
    for (const v of r.values) lines.push(`  ${v.field} "${v.cell}" → ${v.read}`);
  }
  return `${lines.join('\n')}\n`;
}

export interface InvalidRowLike {
  row: number;
  line: number;
  email?: string;
  errors: Array<{ field: string; reason: string }>;
}

/** Up to this many invalid rows are listed one by one; past it they are grouped by reason. */
const LIST_ROWS = 10;
const GROUPS = 10;
const EXAMPLES = 3;

const where = (r: InvalidRowLike) => `line ${r.line} (row ${r.row}${r.email ? `, ${r.email}` : ''})`;

/** The dry-run report, and the list printed when a real run refuses to start. */
export function formatReport(
  s: { rows: number; valid: number; invalid: number; invalidRows: InvalidRowLike[]; errorsFile?: string },
  label: string,
): string {
  const lines: string[] = [];
  lines.push(`${label}: ${NUM.format(s.rows)} rows, ${NUM.format(s.valid)} valid, ${NUM.format(s.invalid)} invalid.`);
  const full = s.errorsFile ? `every invalid row is in ${s.errorsFile}` : 'the full list: --errors FILE, or the results file of a real run';
  if (s.invalid <= LIST_ROWS) {
    for (const r of s.invalidRows) for (const e of r.errors) lines.push(`  ${where(r)}: ${e.field}: ${e.reason}`);
  } else {
    const groups = new Map<string, InvalidRowLike[]>();
    for (const r of s.invalidRows) {
      for (const e of r.errors) {
        const k = `${e.field}: ${e.reason}`;
        const g = groups.get(k);
        if (g) g.push(r);
        else groups.set(k, [r]);
      }
    }
    const sorted = [...groups.entries()].sort((a, b) => b[1].length - a[1].length);
    for (const [reason, rows] of sorted.slice(0, GROUPS)) {
      const more = rows.length > EXAMPLES ? `, … ${NUM.format(rows.length - EXAMPLES)} more` : '';
      lines.push(`  ${NUM.format(rows.length)} × ${reason}`);
      lines.push(`      ${rows.slice(0, EXAMPLES).map(where).join(', ')}${more}`);
    }
    if (sorted.length > GROUPS) lines.push(`  … and ${NUM.format(sorted.length - GROUPS)} other reasons.`);
    if (s.invalid > s.invalidRows.length) lines.push(`  (the groups count the first ${NUM.format(s.invalidRows.length)} invalid rows)`);
  }
  if (s.invalid > 0) lines.push(`  ${full[0].toUpperCase()}${full.slice(1)}.`);
  return `${lines.join('\n')}\n`;
}

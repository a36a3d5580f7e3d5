/**
 * What a person reads about a file before anything is sent: how each header
 * was read, how the team, template and assessment cells were read, and the
 * invalid rows grouped by reason (a report that scales with attention, not
 * with the file).
 */
import { NUM } from '../format/number.js';
import type { AccountData } from './account.js';
import type { ColumnMapping, Field } from './columns.js';
import type { CsvMeta } from './reader.js';
import type { RowValidator } from './validate.js';

export interface MappingReport {
  /** Every header cell: the field it was read as, or null (carried through untouched). */
  columns: Array<{ column: string; field: Field | null; note?: string }>;
  /** Distinct team, template and assessment cells and what they became. */
  values: Array<{ field: Field; cell: string; read: string }>;
  /** How one-cell names were split: the count and a few examples. */
  names?: { split: number; examples: Array<{ cell: string; first: string; last: string }> };
  /** Cells read in a way worth saying: several addresses, another column for anonymous cells, letters lost to a code page. */
  notes: string[];
}

export function describeMapping(m: ColumnMapping, validator: RowValidator, account: AccountData, meta: Pick<CsvMeta, 'sheet'>): MappingReport {
  const fieldOf = new Map<number, Field>();
  for (const [f, i] of Object.entries(m.index) as Array<[Field, number]>) fieldOf.set(i, f);
  const columns = m.header.map((h, i) => {
    const alternateOf = (Object.entries(m.alternates) as Array<[Field, number[]]>).find(([, is]) => is.includes(i))?.[0];
    const field = fieldOf.get(i) ?? alternateOf ?? null;
    const like = m.resembles.get(i);
    const note = like
      ? `looks like ${like} but is not read as it; --map "${h.trim()}=${like}" to use it`
      : alternateOf
        ? `where "${m.header[m.index[alternateOf]!].trim()}" is empty or anonymous`
        : undefined;
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
  const st = validator.stats;
  const rows = (n: number) => `${NUM.format(n)} row${n === 1 ? '' : 's'}`;
  const notes: string[] = [];
  if (st.severalEmails) notes.push(`${rows(st.severalEmails)} had several email addresses in one cell: the first valid one is used, the cell is kept whole in the results.`);
  if (st.severalPhones) notes.push(`${rows(st.severalPhones)} had several phone numbers in one cell: the first valid one is used, the cell is kept whole in the results.`);
  for (const [f, n] of st.fromAlternate) {
    const from = m.header[m.index[f]!]?.trim();
    notes.push(`${rows(n)}: ${f} read from another column, as "${from}" is empty or anonymous there.`);
  }
  if (st.damaged) notes.push(damagedNames(st, meta));
  if (st.unlistedPhones) {
    const ex = (st.unlistedExamples ?? []).map((e) => `"${e}"`).join(', ');
    notes.push(`${rows(st.unlistedPhones)} ${st.unlistedPhones === 1 ? 'has' : 'have'} a phone in a range libphonenumber does not list (${ex}): sent as written, since they go by email; a row that must carry an SMS is refused.`);
  }
  const names = st.split ? { split: st.split, examples: st.splitExamples } : undefined;
  return names ? { columns, values, names, notes } : { columns, values, notes };
}

/**
 * Names with "?" or "\uFFFD" where a letter should be: the dry run's note and
 * the real run's warning. A CSV lost them to the code page it was saved in,
 * and saving it again as CSV UTF-8 fixes that; a workbook keeps every letter
 * (its text is Unicode), so its names were damaged before they reached it:
 * saving it again changes nothing, the program that exported it is where
 * they are fixed.
 */
export function damagedNames(st: { damaged: number; damagedExamples: string[] }, meta: Pick<CsvMeta, 'sheet'>): string {
  const n = st.damaged;
  const which = `${NUM.format(n)} row${n === 1 ? ' has' : 's have'} a name with "?" or "\uFFFD" where a letter should be (${st.damagedExamples.map((e) => `"${e}"`).join(', ')})`;
  // meta.sheet is set for a workbook only (xlsx-reader.ts).
  const why =
    meta.sheet === undefined
      ? 'the file was saved in a code page without those letters; save it again as "CSV UTF-8".'
      : 'the workbook itself holds them so (a workbook stores every letter): they were damaged before it was written, by the program that exported it; fix the names there and export again.';
  return `${which}: ${why}`;
}

/** The mapping as text: one line per column, then one per distinct value read. */
export function formatMapping(r: MappingReport): string {
  const lines = ['Columns:'];
  // Columns with no header and no field say the same thing: one line for all
  // of them (a header of 125,000 commas is one line, not 125,000). The width
  // is a fold, not Math.max(...all): a spread of that many overflows the stack.
  const blank = (c: MappingReport['columns'][number]) => c.column === '' && c.field === null && !c.note;
  const shown = r.columns.filter((c) => !blank(c));
  const blanks = r.columns.length - shown.length;
  const width = Math.min(30, shown.reduce((w, c) => Math.max(w, c.column.length + 2), 2));
  for (const c of shown) {
    const col = `"${c.column}"`.padEnd(width);
    lines.push(`  ${col} → ${c.field ?? 'carried through untouched'}${c.note ? ` (${c.note})` : ''}`);
  }
  if (blanks > 0) lines.push(`  ${NUM.format(blanks)} column${blanks === 1 ? '' : 's'} with no header → carried through untouched`);
  if (r.values.length) {
    lines.push('Values:');
    for (const v of r.values) lines.push(`  ${v.field} "${v.cell}" → ${v.read}`);
  }
  if (r.names) {
    lines.push(`Names: ${NUM.format(r.names.split)} split from one cell (--name-order last-first reads them the other way), e.g.`);
    for (const e of r.names.examples) lines.push(`  "${e.cell}" → first "${e.first}", last "${e.last}"`);
  }
  for (const n of r.notes) lines.push(`Note: ${n}`);
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
  lines.push(`${label}: ${NUM.count(s.rows, 'row')}, ${NUM.format(s.valid)} valid, ${NUM.format(s.invalid)} invalid.`);
  const full = s.errorsFile ? `every invalid row is in ${s.errorsFile}` : 'the full list: --errors FILE, or the results file of a real run';
  if (s.invalid <= LIST_ROWS) {
    for (const r of s.invalidRows) for (const e of r.errors) lines.push(`  ${where(r)}: ${e.field}: ${e.reason}`);
  } else {
    const groups = new Map<string, InvalidRowLike[]>();
    for (const r of s.invalidRows) {
      for (const e of r.errors) {
        // "Duplicate email in the file (first on row 12)" is one reason, whatever the row.
        const k = `${e.field}: ${e.reason.replace(/\s*\(first on row [\d,]+\)/, '')}`;
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

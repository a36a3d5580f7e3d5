/**
 * The employer's self-identification file (`--fairness FILE`): a CSV or an
 * .xlsx read by the bulk invite's reader (any encoding it reads, any
 * delimiter, title rows above the header skipped). Read here, on this
 * machine, into memory only: nothing of it is sent, cached or written
 * (docs/fairness.md). Messages about it name row numbers and columns, never a
 * value: a value is one person's answer.
 */
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { UsageError } from '../core/errors.js';
import { readInputBatches } from '../bulk/input.js';
import type { CsvMeta } from '../bulk/reader.js';
import { Categories, isUndisclosed } from './categories.js';

export type JoinKey = 'email' | 'person_id' | 'custom_id';
export const JOIN_KEYS: readonly JoinKey[] = ['email', 'person_id', 'custom_id'];

export interface SelfId {
  join: JoinKey;
  /** The --by columns as the file's header spells them. */
  columns: string[];
  /** Join value → one category index per column (-1: undisclosed). */
  answers: Map<string, Int32Array>;
  categories: Categories[];
  sha256: string;
  /** Data rows read, rows with no join value, rows repeating an earlier row exactly. */
  rows: number;
  rowsWithoutKey: number;
  duplicateRows: number;
}

/** A header cell as a name: lower case, letters and digits only ("Person ID" → "personid"). */
const headerName = (h: string): string => h.normalize('NFKC').toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '');

/** A join value as it is compared: emails trimmed and lower-cased, ids trimmed. */
export const joinValue = (join: JoinKey, v: string | null | undefined): string | undefined => {
  const t = v?.trim();
  if (!t) return undefined;
  return join === 'email' ? t.toLowerCase() : t;
};

const ALIASES: Record<JoinKey, string[]> = {
  email: ['email', 'emailaddress', 'email1', 'mail'],
  person_id: ['personid', 'person', 'candidateid', 'applicantid'],
  custom_id: ['customid'],
};

function findColumn(header: string[], names: string[]): number {
  const h = header.map(headerName);
  return h.findIndex((x) => names.includes(x));
}

/** The join column: --join, else the first of email, person_id, custom_id the header has. */
function pickJoin(header: string[], wanted: JoinKey | undefined): { join: JoinKey; index: number } {
  for (const j of wanted ? [wanted] : JOIN_KEYS) {
    const index = findColumn(header, ALIASES[j]);
    if (index >= 0) return { join: j, index };
  }
  throw new UsageError(
    wanted
      ? `The --fairness file has no ${wanted} column to join on (its header: ${header.length} columns).`
      : 'The --fairness file has no column to join on: it needs email, person_id or custom_id.',
    'name the column in the header row, or pick one with --join',
  );
}

const words = (h: string): string[] => h.normalize('NFKC').toLowerCase().split(/[^\p{L}\p{N}]+/u).filter(Boolean);

/** A --by name's column: the header of that name, else the one header with its words among its own ("race" → "Race/Ethnicity"). */
function byColumn(header: string[], b: string): number {
  const exact = findColumn(header, [headerName(b)]);
  if (exact >= 0) return exact;
  const want = words(b);
  const hits = header.map((h, i) => (want.length > 0 && want.every((w) => words(h).includes(w)) ? i : -1)).filter((i) => i >= 0);
  return hits.length === 1 ? hits[0] : -1;
}

/** Each --by column's index in the header; a missing one is a usage error naming it. */
function byColumns(header: string[], by: string[]): number[] {
  return by.map((b) => {
    const i = byColumn(header, b);
    if (i < 0) throw new UsageError(`The --fairness file has no column "${b.slice(0, 40)}" (--by).`, 'the --by names must match the header row (case and spaces do not matter)');
    return i;
  });
}

/** The SHA-256 of the file's bytes: what the report names instead of its path. */
async function fileSha256(path: string): Promise<string> {
  const h = createHash('sha256');
  for await (const chunk of createReadStream(path)) h.update(chunk as Buffer);
  return h.digest('hex');
}

export interface ReadSelfIdOptions {
  by: string[];
  join?: JoinKey;
  note?: (text: string) => void;
}

/** Reads the file whole; refuses one key given two different answers (naming the rows). */
export async function readSelfId(path: string, opts: ReadSelfIdOptions): Promise<SelfId> {
  const isHeader = (cells: string[]) => {
    const h = cells.map(headerName);
    // The first record naming a join column (a title block above it is skipped); byColumns then names a missing --by column.
    return (opts.join ? [opts.join] : JOIN_KEYS).some((j) => h.some((x) => ALIASES[j].includes(x)));
  };
  let meta: CsvMeta | undefined;
  let cols: { join: JoinKey; index: number; by: number[] } | undefined;
  const categories = opts.by.map(() => new Categories());
  const answers = new Map<string, Int32Array>();
  const firstRow = new Map<string, number>();
  let rows = 0;
  let rowsWithoutKey = 0;
  let duplicateRows = 0;
  for await (const batch of readInputBatches(path, 'the --fairness file', (m) => (meta = m), { isHeader, note: opts.note })) {
    cols ??= (() => {
      const header = meta!.header;
      const j = pickJoin(header, opts.join);
      return { ...j, by: byColumns(header, opts.by) };
    })();
    for (const rec of batch) {
      rows++;
      const key = joinValue(cols.join, rec.cells[cols.index]);
      if (key === undefined) {
        rowsWithoutKey++;
        continue;
      }
      // Filled in a loop: Int32Array.from(array, fn) goes through the iterator protocol, a tenth of the file's read.
      const a = new Int32Array(cols.by.length);
      for (let k = 0; k < a.length; k++) {
        const v = rec.cells[cols.by[k]] ?? '';
        a[k] = isUndisclosed(v) ? -1 : categories[k].indexOf(v);
      }
      const seen = answers.get(key);
      if (seen === undefined) {
        answers.set(key, a);
        firstRow.set(key, rec.row);
      } else if (seen.every((x, i) => x === a[i])) duplicateRows++;
      else {
        throw new UsageError(
          `Rows ${firstRow.get(key)} and ${rec.row} of the --fairness file give the same ${cols.join} different answers; the report cannot choose between them.`,
          'correct one of the two rows (or remove it) and run again',
        );
      }
    }
  }
  if (!meta || !cols) {
    const header = meta?.header ?? [];
    pickJoin(header, opts.join);
    byColumns(header, opts.by);
    throw new UsageError('The --fairness file has a header but no rows.');
  }
  return { join: cols.join, columns: cols.by.map((i) => meta!.header[i].trim()), answers, categories, sha256: await fileSha256(path), rows, rowsWithoutKey, duplicateRows };
}

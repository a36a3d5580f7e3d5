/**
 * What the output helpers share (output.ts prints one object or list,
 * list-writer.ts streams a long one): the format chosen, the --fields
 * checks, the table's columns and options, JSON text.
 */
import type { OutputFormat, Session } from '../core/session.js';
import { UsageError } from '../core/errors.js';
import { colorsFor } from './color.js';
import { isPlainObject, validateFields } from './field-paths.js';
import type { ColumnSpec, TableOptions } from './table.js';
import { droppedNote } from './table-fit.js';
import { safeJson } from './sanitize.js';

// The table and CSV code (and cli-table3, csv-stringify) load only when that
// format is printed: `-o json` into a pipe should cost no more than it needs.
export const loadTable = () => import('./table.js');
export const loadCsv = () => import('./csv.js');
export const loadXlsx = () => import('./xlsx.js');

/** What the output helper needs of a Session (tests can build just this). */
export type OutputCtx = Pick<Session, 'io' | 'globals'>;

const FORMATS: readonly OutputFormat[] = ['table', 'json', 'ndjson', 'csv', 'xlsx'];

/**
 * The format to print in: an explicit `-o` wins (a usage error when this
 * command cannot print it); otherwise table on a terminal, json when piped.
 */
export function resolveFormat(ctx: OutputCtx, allowed: readonly OutputFormat[] = FORMATS): OutputFormat {
  const explicit = ctx.globals.output;
  if (explicit) {
    if (!allowed.includes(explicit)) {
      throw new UsageError(`This command cannot print -o ${explicit}.`, `Use one of: ${allowed.join(', ')}.`);
    }
    if (explicit === 'xlsx' && ctx.io.stdoutIsTTY) {
      throw new UsageError('-o xlsx writes a workbook (binary), not text for a terminal.', 'add --out FILE.xlsx where the command has it, or redirect: > FILE.xlsx');
    }
    return explicit;
  }
  if (ctx.io.stdoutIsTTY && allowed.includes('table')) return 'table';
  return allowed.includes('json') ? 'json' : allowed[0];
}

export function tableOptions(ctx: OutputCtx): TableOptions {
  const onDropped = (headers: string[], keys: string[], first: string) => ctx.globals.quiet || ctx.io.stderr.write(`${droppedNote(headers, keys, first, ctx.io.columns)}\n`);
  return { tty: ctx.io.stdoutIsTTY, width: ctx.io.columns, color: colorsFor(ctx.io.colorStdout), now: ctx.io.now(), onDropped };
}

export function fieldsOf(ctx: OutputCtx): string[] | undefined {
  const f = ctx.globals.fields;
  return f && f.length > 0 ? f : undefined;
}

/**
 * Columns when a command chose none: the items' top-level fields (references
 * show by name), without the `object` and `mode` markers.
 */
function defaultColumns(items: unknown[]): ColumnSpec[] {
  const keys = new Set<string>();
  for (const it of items.slice(0, 50)) if (isPlainObject(it)) for (const k of Object.keys(it)) keys.add(k);
  keys.delete('object');
  keys.delete('mode');
  return [...keys].map((k) => ({ key: k, header: k.toUpperCase() }));
}

export function tableColumns(fields: string[] | undefined, columns: ColumnSpec[], items: unknown[]): ColumnSpec[] {
  if (fields) return columnsForFields(fields, columns);
  return columns.length > 0 ? columns : defaultColumns(items);
}

/** Table columns for --fields: the command's header for a key it knows, else the key. */
export function columnsForFields(fields: string[], columns: ColumnSpec[] = []): ColumnSpec[] {
  return fields.map((f) => columns.find((c) => c.key === f) ?? { key: f, header: f.toUpperCase() });
}

/**
 * JSON text of a value: exact data, with the C1 and bidi controls a service may
 * plant written as `\u` escapes (JSON.stringify leaves them raw, and a
 * terminal would obey them).
 */
export function jsonText(v: unknown, indent?: number): string {
  return safeJson(JSON.stringify(v, null, indent));
}

/** What --fields may name: the command's fixed list (and its columns), or else what the data offers. */
export interface FieldsOptions {
  /** Table columns: their keys are valid names too. */
  columns?: ColumnSpec[];
  /** Field names valid for --fields besides those present in the data. */
  knownFields?: readonly string[];
  /**
   * The command's fixed list of --fields names, from the schema of its output
   * (`fieldNames`, src/api/field-names.ts): checked against it alone, whatever the
   * service returned (an empty list included).
   */
  fieldNames?: readonly string[];
}

/**
 * Checks --fields (when given) against the command's fixed list: a command
 * calls it before its first request, so a misspelt name costs no request.
 */
export function checkFields(ctx: OutputCtx, opts: FieldsOptions): void {
  const fields = fieldsOf(ctx);
  if (fields && opts.fieldNames) validateFields(fields, [], [...(opts.columns ?? []).map((c) => c.key), ...(opts.knownFields ?? [])], opts.fieldNames);
}

export function checkFieldsOn(ctx: OutputCtx, sample: unknown[], opts: FieldsOptions): void {
  const fields = fieldsOf(ctx);
  if (!fields) return;
  validateFields(fields, sample, [...(opts.columns ?? []).map((c) => c.key), ...(opts.knownFields ?? [])], opts.fieldNames);
}

/** "job families" → "Job families": the name of a workbook's sheet. */
export function sheetTitle(noun: string | undefined): string {
  const n = noun ?? 'items';
  return n.charAt(0).toUpperCase() + n.slice(1);
}

export interface ListWriterOptions extends FieldsOptions {
  columns: ColumnSpec[];
  /** Fixed CSV header; without it the first item's keys fix the header. */
  csvColumns?: string[];
  /** JSON as a list envelope with this mode (the items of an API list, e.g. `--all`); a JSON array when absent. */
  envelope?: { mode?: string };
  allowed?: readonly OutputFormat[];
  noun?: string;
  /**
   * The items are flat records already (column name → string, number or
   * null), as the wide scorecard rows are: CSV takes them as they are instead
   * of flattening each one again (unless --fields picks columns).
   */
  flatItems?: boolean;
}

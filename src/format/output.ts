/**
 * The one output helper of every command: `-o table|json|ndjson|csv` and
 * `--fields`. Commands hand it API objects; it decides the shape.
 *
 * The rules (documented in the README):
 * - Default format: `table` when stdout is a terminal, otherwise `json`.
 * - json: the API's object as received, pretty-printed with 2 spaces. A list
 *   is the API's list envelope (`{ mode, object: "list", total_count, has_more,
 *   data }`), so `jq '.data[]'` works for one page and for `--all` alike; a
 *   collection we assemble ourselves (several ids) is a JSON array.
 * - ndjson: one compact JSON object per line: each item of a list (no
 *   envelope), or the one object.
 * - csv: a header line and one row per item (see csv.ts for flattening and
 *   formula neutralisation).
 * - table: columns chosen per command, fit to the terminal.
 * - --fields a,b.c: only those fields, dotted names for nested ones, in that
 *   order; unknown names are a usage error listing the valid ones. In json the
 *   list envelope stays and each item is cut down.
 * - A list cut by the service's cap (`has_more: true`) is announced on stderr.
 */
import type { Session } from '../core/session.js';
import type { OutputFormat } from '../core/session.js';
import { UsageError } from '../core/errors.js';
import { colorsFor } from './color.js';
import { type Cell, CONSTANT_FIELDS, flattenRecord, keysOutside, getPath, isPlainObject, project, unionKeys, validateFields } from './fields.js';
import type { ColumnSpec, TableOptions } from './table.js';
import { untilDrained } from './drain.js';
import { droppedNote } from './table-fit.js';
import { NUM } from './number.js';
import { safeJson, safeLine } from './sanitize.js';

export type { ColumnSpec } from './table.js';

// The table and CSV code (and cli-table3, csv-stringify) load only when that
// format is printed: `-o json` into a pipe should cost no more than it needs.
const loadTable = () => import('./table.js');
const loadCsv = () => import('./csv.js');
const loadXlsx = () => import('./xlsx.js');

/** What the output helper needs of a Session (tests can build just this). */
export type OutputCtx = Pick<Session, 'io' | 'globals'>;

const FORMATS: readonly OutputFormat[] = ['table', 'json', 'ndjson', 'csv', 'xlsx'];

/** The API's list envelope. */
export interface ListEnvelope<T = unknown> {
  mode?: string;
  object?: string;
  total_count?: number;
  has_more?: boolean;
  data: T[];
  [k: string]: unknown;
}

function isListEnvelope(v: unknown): v is ListEnvelope {
  return isPlainObject(v) && Array.isArray(v.data);
}

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

function tableOptions(ctx: OutputCtx): TableOptions {
  const onDropped = (headers: string[], keys: string[], first: string) => ctx.globals.quiet || ctx.io.stderr.write(`${droppedNote(headers, keys, first, ctx.io.columns)}\n`);
  return { tty: ctx.io.stdoutIsTTY, width: ctx.io.columns, color: colorsFor(ctx.io.colorStdout), now: ctx.io.now(), onDropped };
}

function fieldsOf(ctx: OutputCtx): string[] | undefined {
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

function tableColumns(fields: string[] | undefined, columns: ColumnSpec[], items: unknown[]): ColumnSpec[] {
  if (fields) return columnsForFields(fields, columns);
  return columns.length > 0 ? columns : defaultColumns(items);
}

/** Table columns for --fields: the command's header for a key it knows, else the key. */
function columnsForFields(fields: string[], columns: ColumnSpec[] = []): ColumnSpec[] {
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

function json(v: unknown): string {
  return `${jsonText(v, 2)}\n`;
}

/** What --fields may name: the command's fixed list (and its columns), or else what the data offers. */
interface FieldsOptions {
  /** Table columns: their keys are valid names too. */
  columns?: ColumnSpec[];
  /** Field names valid for --fields besides those present in the data. */
  knownFields?: readonly string[];
  /**
   * The command's fixed list of --fields names, from the schema of its output
   * (`fieldNames`, src/api/fields.ts): checked against it alone, whatever the
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

function checkFieldsOn(ctx: OutputCtx, sample: unknown[], opts: FieldsOptions): void {
  const fields = fieldsOf(ctx);
  if (!fields) return;
  validateFields(fields, sample, [...(opts.columns ?? []).map((c) => c.key), ...(opts.knownFields ?? [])], opts.fieldNames);
}

export interface PrintObjectOptions extends FieldsOptions {
  allowed?: readonly OutputFormat[];
}

/** Prints one API object. */
export async function printObject(ctx: OutputCtx, obj: unknown, opts: PrintObjectOptions = {}): Promise<void> {
  const format = resolveFormat(ctx, opts.allowed);
  const fields = fieldsOf(ctx);
  checkFieldsOn(ctx, [obj], opts);
  const out = ctx.io.stdout;
  switch (format) {
    case 'json':
      out.write(json(fields ? project(obj, fields) : obj));
      return;
    case 'ndjson':
      out.write(`${jsonText(fields ? project(obj, fields) : obj)}\n`);
      return;
    case 'csv': {
      const { toCsv } = await loadCsv();
      out.write(toCsv([obj], { fields }));
      return;
    }
    case 'xlsx': {
      const list = await (await loadXlsx()).openXlsxList(out, { fields, sheet: 'Item', failed: () => ctx.io.stdoutError?.() });
      list.write(obj);
      await list.end();
      return;
    }
    case 'table': {
      const { cellText, formatCell, renderKeyValue } = await loadTable();
      const t = tableOptions(ctx);
      let pairs: Array<[string, string]>;
      if (fields || opts.columns) {
        const cols = fields ? columnsForFields(fields, opts.columns) : (opts.columns as ColumnSpec[]);
        pairs = cols.map((c) => {
          const v = getPath(obj, c.key);
          return [c.header ?? c.key, formatCell(c, v, obj, t)];
        });
      } else {
        // Every scalar, by its dotted name; arrays of objects by their fields.
        const flat = flattenRecord(obj);
        pairs = Object.entries(flat).filter(([k]) => !CONSTANT_FIELDS.has(k)).map(([k, v]) => [k, typeof v === 'string' ? cellText(v, t) : String(v)]);
      }
      out.write(renderKeyValue(pairs, t));
      return;
    }
  }
}

export interface PrintListOptions extends FieldsOptions {
  /** Table columns (the command's choice for a terminal). */
  columns: ColumnSpec[];
  /** Fixed CSV header (flattened names); the union of the items' keys when absent. */
  csvColumns?: string[];
  /** Plural noun for notices ("invitations"). */
  noun?: string;
  /** Announce a list cut by the service's cap on stderr (default true). */
  capNotice?: boolean;
  /** Flags that narrow the list, for the cap notice (default --team/--custom-id/--email). */
  narrowFlags?: string[];
  allowed?: readonly OutputFormat[];
}

/**
 * Prints a list: the API's envelope as received, or a plain array of items we
 * assembled. See the rules at the top of this file.
 */
export async function printList(ctx: OutputCtx, envelopeOrItems: ListEnvelope | unknown[], opts: PrintListOptions): Promise<void> {
  const format = resolveFormat(ctx, opts.allowed);
  const envelope = isListEnvelope(envelopeOrItems) ? envelopeOrItems : undefined;
  const items = envelope ? envelope.data : (envelopeOrItems as unknown[]);
  const fields = fieldsOf(ctx);
  checkFieldsOn(ctx, items.slice(0, 50), opts);
  const shown = fields ? items.map((it) => project(it, fields)) : items;
  const out = ctx.io.stdout;
  switch (format) {
    case 'json':
      out.write(json(envelope ? { ...envelope, data: shown } : shown));
      break;
    case 'ndjson':
      for (const it of shown) out.write(`${jsonText(it)}\n`);
      break;
    case 'csv': {
      const { toCsv } = await loadCsv();
      out.write(toCsv(items, { fields, columns: fields ? undefined : opts.csvColumns }));
      break;
    }
    case 'xlsx': {
      const list = await (await loadXlsx()).openXlsxList(out, { fields, columns: opts.csvColumns, sheet: sheetTitle(opts.noun), warn: (t) => ctx.io.stderr.write(t), failed: () => ctx.io.stdoutError?.() });
      for (const it of items) list.write(it);
      await list.end();
      break;
    }
    case 'table':
      if (items.length > 0) {
        const { renderTable } = await loadTable();
        out.write(renderTable(items, tableColumns(fields, opts.columns, items), tableOptions(ctx)));
      } else if (!ctx.globals.quiet) {
        ctx.io.stderr.write(`No ${opts.noun ?? 'items'} found.\n`);
      }
      break;
  }
  if (envelope?.has_more && opts.capNotice !== false) {
    writeCapNotice(ctx, { count: items.length, total: envelope.total_count, noun: opts.noun, narrowFlags: opts.narrowFlags });
  }
}


/** The stderr notice for a list cut by the service's cap. */
export function capNotice(o: { count: number; total?: number; noun?: string; narrowFlags?: string[] }): string {
  const noun = o.noun ?? 'items';
  const flags = o.narrowFlags ?? ['--team', '--custom-id', '--email'];
  const of = o.total !== undefined && o.total > o.count ? ` of ${NUM.format(o.total)}` : '';
  const narrow = flags.length > 0 ? `, or narrow with ${flags.join('/')}` : '';
  return `Showing ${NUM.format(o.count)}${of} ${noun} (the service returns at most ${NUM.format(o.count)} per request). Use --all for the complete list${narrow}.`;
}

/**
 * Written even with --quiet: a list silently cut short is the one thing a
 * script must hear about.
 */
function writeCapNotice(ctx: OutputCtx, o: Parameters<typeof capNotice>[0]): void {
  const c = colorsFor(ctx.io.colorStderr);
  ctx.io.stderr.write(`${c.yellow(capNotice(o))}\n`);
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

export interface ListWriter {
  readonly format: OutputFormat;
  /** Number of items written so far. */
  readonly count: number;
  /** Writes one item; false when stdout's buffer is full (then `await drained()` before more). */
  write(item: unknown): boolean;
  /** Resolves when stdout can take more (at once unless a write returned false). */
  drained(): Promise<void>;
  /** Ends the output; a workbook (-o xlsx) is complete when the promise resolves. */
  end(): void | Promise<void>;
}

/** "job families" → "Job families": the name of a workbook's sheet. */
function sheetTitle(noun: string | undefined): string {
  const n = noun ?? 'items';
  return n.charAt(0).toUpperCase() + n.slice(1);
}

/** -o xlsx: the rows of a list in one sheet (xlsx.ts), streamed. */
async function createXlsxListWriter(ctx: OutputCtx, opts: ListWriterOptions): Promise<ListWriter> {
  const fields = fieldsOf(ctx);
  const list = await (await loadXlsx()).openXlsxList(ctx.io.stdout, {
    fields,
    columns: fields ? undefined : opts.csvColumns,
    flatItems: opts.flatItems,
    sheet: sheetTitle(opts.noun),
    warn: (t) => ctx.io.stderr.write(t),
    failed: () => ctx.io.stdoutError?.(),
  });
  let count = 0;
  let ending: Promise<void> | undefined;
  return {
    format: 'xlsx',
    get count() {
      return count;
    },
    write(item: unknown): boolean {
      if (ending) throw new Error('list writer already ended');
      if (count === 0 && !opts.fieldNames) checkFieldsOn(ctx, [item], opts);
      list.write(item);
      count++;
      return true;
    },
    drained: () => Promise.resolve(),
    end() {
      ending ??= list.end();
      return ending;
    },
  };
}

/**
 * The rows of one format, for createListWriter: what opens the output, each
 * item (emitted through the line batch), and what closes it.
 */
export interface FormatRows {
  /** Writes what opens the output (a JSON array or envelope, a fixed CSV header). */
  start(): void;
  /** One item, at position `index`; `shown` is the item cut down to --fields. */
  row(item: unknown, shown: unknown, index: number, emit: (chunk: string) => void): void;
  /** Writes what closes the output after `count` items (the batch already flushed). */
  end(count: number): void;
}

/**
 * -o json: written as it comes and valid once ended. With `envelope`, the
 * list envelope with `data` first and `total_count` = items written,
 * `has_more`: false after it; otherwise a JSON array.
 */
export function jsonRows(out: OutputCtx['io']['stdout'], envelope?: { mode?: string }): FormatRows {
  const indent = envelope ? '    ' : '  ';
  return {
    start() {
      if (envelope) {
        const head: Record<string, unknown> = {};
        if (envelope.mode !== undefined) head.mode = envelope.mode;
        head.object = 'list';
        const open = JSON.stringify(head, null, 2).replace(/\n}$/, '');
        out.write(`${open},\n  "data": [`);
      } else {
        out.write('[');
      }
    },
    row(_item, shown, index, emit) {
      const body = jsonText(shown, 2).replace(/\n/g, `\n${indent}`);
      emit(`${index === 0 ? '' : ','}\n${indent}${body}`);
    },
    end(count) {
      if (envelope) {
        out.write(`${count === 0 ? '' : '\n  '}],\n  "total_count": ${count},\n  "has_more": false\n}\n`);
      } else {
        out.write(`${count === 0 ? '' : '\n'}]\n`);
      }
    },
  };
}

/** -o ndjson: one compact JSON object per line, nothing around them. */
export function ndjsonRows(): FormatRows {
  return {
    start() {},
    row(_item, shown, _index, emit) {
      emit(`${jsonText(shown)}\n`);
    },
    end() {},
  };
}

/**
 * -o csv: a header line, then one line per item. Without `csvColumns` the
 * first item fixes the header; fields of later items outside it are dropped
 * with one warning.
 */
export function csvRows(ctx: OutputCtx, opts: ListWriterOptions, fields: string[] | undefined, csv: Awaited<ReturnType<typeof loadCsv>>): FormatRows {
  const out = ctx.io.stdout;
  let header: string[] | undefined = fields ? undefined : opts.csvColumns;
  let warnedExtra = false;
  // A file for a person (--out) opens in Excel: UTF-8 with a byte order mark. stdout stays exact.
  const headerLine = (h: string[]) => (ctx.io.stdoutIsOutFile ? '\uFEFF' : '') + csv.csvLine(h);
  return {
    start() {
      if (header) out.write(headerLine(header));
    },
    row(item, _shown, _index, emit) {
      const rec = opts.flatItems && !fields ? (item as Record<string, Cell>) : csv.csvRecord(item, fields);
      if (!header) {
        header = unionKeys([rec], fields);
        emit(headerLine(header));
      } else if (!warnedExtra && !opts.csvColumns && keysOutside(rec, header).length > 0) {
        warnedExtra = true;
        const extra = keysOutside(rec, header);
        ctx.io.stderr.write(`Warning: CSV columns were fixed by the first row; ${safeLine(extra.join(', '))} of later rows left out (use -o ndjson for every field).\n`);
      }
      emit(csv.csvLine(csv.cellsFor(rec, header)));
    },
    end(count) {
      // An empty export still says what its columns would have been, when known.
      if (!header && count === 0 && fields) out.write(headerLine(fields));
    },
  };
}

/** -o table: a table needs every row for its widths, so it is printed at the end. */
export function tableRows(ctx: OutputCtx, opts: ListWriterOptions, fields: string[] | undefined, renderTable: Awaited<ReturnType<typeof loadTable>>['renderTable']): FormatRows {
  const buffered: unknown[] = [];
  return {
    start() {},
    row(item) {
      buffered.push(item);
    },
    end() {
      if (buffered.length > 0) {
        ctx.io.stdout.write(renderTable(buffered, tableColumns(fields, opts.columns, buffered), tableOptions(ctx)));
      } else if (!ctx.globals.quiet) {
        ctx.io.stderr.write(`No ${opts.noun ?? 'items'} found.\n`);
      }
    },
  };
}

/**
 * Lines gathered to leave together, at the end of this turn of the event
 * loop or every 64 KB: a write to a file or a pipe is a system call, and one
 * per line was a twentieth of a scorecard export's time. `full`: a write was
 * refused (stdout's buffer is full) since it was last cleared.
 */
export function lineBatch(out: OutputCtx['io']['stdout']): { emit(chunk: string): void; flush(): void; full: boolean } {
  let pending = '';
  let flushScheduled = false;
  const batch = {
    full: false,
    flush() {
      flushScheduled = false;
      if (pending === '') return;
      const chunk = pending;
      pending = '';
      if (!out.write(chunk)) batch.full = true;
    },
    emit(chunk: string) {
      pending += chunk;
      if (pending.length >= 65_536) batch.flush();
      else if (!flushScheduled) {
        flushScheduled = true;
        setImmediate(batch.flush);
      }
    },
  };
  return batch;
}

/**
 * Streams a long list: NDJSON and CSV lines leave as they come (those of one
 * turn of the event loop in one write, see lineBatch); JSON is written as
 * it comes and is valid when end() is called (jsonRows); a table waits for
 * end() (tableRows). The rows of each format are their own functions above.
 */
export async function createListWriter(ctx: OutputCtx, opts: ListWriterOptions): Promise<ListWriter> {
  const format = resolveFormat(ctx, opts.allowed);
  // A fixed list is checked before any item (an empty list included); otherwise on the first item.
  checkFields(ctx, opts);
  if (format === 'xlsx') return createXlsxListWriter(ctx, opts);
  const fields = fieldsOf(ctx);
  const out = ctx.io.stdout;
  const rows =
    format === 'csv'
      ? csvRows(ctx, opts, fields, await loadCsv())
      : format === 'table'
        ? tableRows(ctx, opts, fields, (await loadTable()).renderTable)
        : format === 'json'
          ? jsonRows(out, opts.envelope)
          : ndjsonRows();
  let count = 0;
  let ended = false;
  rows.start();
  const batch = lineBatch(out);

  return {
    format,
    get count() {
      return count;
    },
    write(item: unknown): boolean {
      if (ended) throw new Error('list writer already ended');
      if (count === 0 && !opts.fieldNames) checkFieldsOn(ctx, [item], opts);
      rows.row(item, fields ? project(item, fields) : item, count, batch.emit);
      count++;
      return !batch.full;
    },
    drained() {
      batch.flush();
      const wasFull = batch.full;
      batch.full = false;
      return untilDrained(out, wasFull, () => ctx.io.stdoutError?.());
    },
    end() {
      if (ended) return;
      ended = true;
      batch.flush();
      rows.end(count);
    },
  };
}

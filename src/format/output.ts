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
 *
 * A long list streams through list-writer.ts instead; what both share is in
 * output-kit.ts.
 */
import type { OutputFormat } from '../core/session.js';
import { colorsFor } from './color.js';
import { CONSTANT_FIELDS, flattenRecord, getPath, isPlainObject, project } from './field-paths.js';
import type { ColumnSpec } from './table.js';
import { NUM } from './number.js';
import {
  type FieldsOptions,
  type OutputCtx,
  checkFieldsOn,
  columnsForFields,
  fieldsOf,
  jsonText,
  loadCsv,
  loadTable,
  loadXlsx,
  resolveFormat,
  sheetTitle,
  tableColumns,
  tableOptions,
} from './output-kit.js';

// The front door of the output helpers: commands import from here.
export type { ColumnSpec } from './table.js';
export { type OutputCtx, checkFields, jsonText, resolveFormat } from './output-kit.js';
export { type ListWriter, createListWriter } from './list-writer.js';

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

function json(v: unknown): string {
  return `${jsonText(v, 2)}\n`;
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


/**
 * A long list streamed to stdout (`--all`, exports): items written one by
 * one, with back-pressure (`write` returns false when stdout's buffer is
 * full; then `await drained()`).
 */
import type { OutputFormat } from '../core/session.js';
import { untilDrained } from './drain.js';
import { project } from './field-paths.js';
import { csvRows, jsonRows, lineBatch, ndjsonRows, tableRows } from './list-rows.js';
import { type ListWriterOptions, type OutputCtx, checkFields, checkFieldsOn, fieldsOf, loadCsv, loadTable, loadXlsx, resolveFormat, sheetTitle } from './output-kit.js';

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

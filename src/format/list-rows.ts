/**
 * The rows of each text format of a streamed list (list-writer.ts): JSON,
 * NDJSON, CSV and table, and the batch their lines leave in.
 */
import type { Cell } from './field-paths.js';
import { keysOutside, unionKeys } from './field-paths.js';
import { type ListWriterOptions, type OutputCtx, jsonText, loadCsv, loadTable, tableColumns, tableOptions } from './output-kit.js';
import { safeLine } from './sanitize.js';

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


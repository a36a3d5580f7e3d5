/**
 * Tables for people. On a terminal: dates short or relative, long cells cut
 * with `…` to fit the width, colour when allowed. Piped (`-o table` into a
 * file): full values and full ISO dates, no colour, so nothing is lost.
 */
import Table from 'cli-table3';
import type { Colors } from './color.js';
import { getPath, isPlainObject } from './field-paths.js';
import { safeLine, safeText } from './sanitize.js';
import { fitColumns } from './table-fit.js';

export interface ColumnSpec {
  /** Dotted path into the item (`team.display_name`). */
  key: string;
  /** Column title; the key upper-cased when absent. */
  header?: string;
  /** Custom text for the cell (plain text: the table adds colour and cuts to width). */
  format?: (value: unknown, row: unknown) => string;
  align?: 'left' | 'right';
  /** On a terminal too narrow: the order this column is left out in (1 first); undefined: always shown (table-fit.ts). */
  drop?: number;
  /** Read whole (an email, a name): never cut while it fits the width alone. */
  whole?: boolean;
}

export interface TableOptions {
  /** Terminal output: short dates, truncation to `width`. */
  tty: boolean;
  width: number;
  color: Colors;
  now: Date;
  /** Told which columns were left out to fit the width (their headers and keys, and the first column's key). */
  onDropped?: (headers: string[], keys: string[], firstKey: string) => void;
}

const ISO_TS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?$/;

/** "5m ago", "3h ago", "12d ago" within 30 days, else the date (UTC, YYYY-MM-DD). */
function shortDate(iso: string, now: Date): string {
  const t = Date.parse(iso);
  if (Number.isNaN(t)) return iso;
  const diff = now.getTime() - t;
  const abs = Math.abs(diff);
  const sfx = (s: string) => (diff >= 0 ? `${s} ago` : `in ${s}`);
  if (abs < 60_000) return diff >= 0 ? 'just now' : 'in <1m';
  if (abs < 3_600_000) return sfx(`${Math.floor(abs / 60_000)}m`);
  if (abs < 86_400_000) return sfx(`${Math.floor(abs / 3_600_000)}h`);
  if (abs < 30 * 86_400_000) return sfx(`${Math.floor(abs / 86_400_000)}d`);
  return new Date(t).toISOString().slice(0, 10);
}

/** Plain text of any API value for a table cell. */
export function cellText(v: unknown, opts: Pick<TableOptions, 'tty' | 'now'>): string {
  if (v === null || v === undefined) return '';
  if (typeof v === 'string') {
    if (opts.tty && ISO_TS.test(v)) return shortDate(v, opts.now);
    return v.replace(/\r?\n/g, ' ');
  }
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  if (Array.isArray(v)) return v.map((el) => cellText(el, opts)).filter(Boolean).join(', ');
  if (isPlainObject(v)) {
    // A reference reads best by its name.
    for (const k of ['display_name', 'short_name', 'name', 'email', 'id']) {
      if (v[k] !== undefined && v[k] !== null) return cellText(v[k], opts);
    }
    return JSON.stringify(v);
  }
  return String(v);
}

const ANSI = /\x1b\[[0-9;]*m/g;

/** Visible width (escape codes removed; one column per code point). */
function visibleWidth(s: string): number {
  return [...s.replace(ANSI, '')].length;
}

function truncate(s: string, width: number): string {
  const cps = [...s];
  if (cps.length <= width) return s;
  if (width <= 1) return '…'.slice(0, width);
  return `${cps.slice(0, width - 1).join('')}…`;
}

const BORDERLESS = {
  top: '', 'top-mid': '', 'top-left': '', 'top-right': '',
  bottom: '', 'bottom-mid': '', 'bottom-left': '', 'bottom-right': '',
  left: '', 'left-mid': '', mid: '', 'mid-mid': '', right: '', 'right-mid': '', middle: '  ',
};

function layout(rawHead: string[], rawBody: string[][], opts: TableOptions, columns: ColumnSpec[]): string {
  // Headers can be a foreign server's field names; cells are a stranger's text.
  // Sanitised before measuring and cutting, so a cut never splits an escape.
  let head = rawHead.map(safeLine);
  let body = rawBody.map((r) => r.map(safeLine));
  const natural = head.map((h, i) => Math.max(visibleWidth(h), ...body.map((r) => visibleWidth(r[i]))));
  let aligns = columns.map((c) => c.align ?? 'left');
  let widths = natural;
  if (opts.tty) {
    const fit = fitColumns(columns.map((c, i) => ({ header: visibleWidth(head[i]), natural: natural[i], whole: c.whole, drop: c.drop })), opts.width);
    if (fit.dropped.length > 0) opts.onDropped?.(fit.dropped.map((i) => head[i]), fit.dropped.map((i) => columns[i].key), columns[0].key);
    head = fit.keep.map((i) => head[i]);
    body = body.map((r) => fit.keep.map((i) => r[i]));
    aligns = fit.keep.map((i) => aligns[i]);
    widths = fit.widths;
  }
  const cut = (s: string, i: number) => (opts.tty ? truncate(s, widths[i]) : s);
  const table = new Table({
    chars: BORDERLESS,
    style: { 'padding-left': 0, 'padding-right': 0, head: [], border: [], compact: true },
    colWidths: widths.map((w) => Math.max(w, 1)),
    colAligns: aligns,
    // Cells are already cut to width here, so that colour codes are never split.
    truncate: '…',
    wordWrap: false,
  });
  table.push(head.map((h, i) => opts.color.bold(cut(h, i))));
  for (const r of body) table.push(r.map((c, i) => cut(c, i)));
  return `${table
    .toString()
    .split('\n')
    .map((l) => l.trimEnd())
    .join('\n')}\n`;
}

/**
 * A cell through the column's own formatter, which is written for the
 * reference's shapes: a newer or foreign server's row (null, a scalar, a
 * field of another type) falls back to the plain text of the value.
 */
export function formatCell(c: ColumnSpec, value: unknown, row: unknown, opts: Pick<TableOptions, 'tty' | 'now'>): string {
  if (c.format && isPlainObject(row)) {
    try {
      const text = c.format(value, row);
      if (typeof text === 'string') return text;
    } catch {
      // Fall through to the plain text.
    }
  }
  return cellText(value, opts);
}

/** A table of items, one row each. */
export function renderTable(items: unknown[], columns: ColumnSpec[], opts: TableOptions): string {
  const head = columns.map((c) => c.header ?? c.key.toUpperCase());
  const body = items.map((item) => columns.map((c) => formatCell(c, getPath(item, c.key), item, opts).replace(/\r?\n/g, ' ')));
  return layout(head, body, opts, columns);
}

/** One object as "label  value" lines. */
export function renderKeyValue(pairs: Array<[string, string]>, opts: TableOptions): string {
  if (pairs.length === 0) return '';
  const labelWidth = Math.max(...pairs.map(([k]) => visibleWidth(safeLine(k))));
  const valueWidth = Math.max(8, opts.width - labelWidth - 2);
  const lines = pairs.map(([k, v]) => {
    const text = opts.tty ? truncate(safeLine(v.replace(/\r?\n/g, ' ')), valueWidth) : safeText(v);
    return `${opts.color.bold(safeLine(k).padEnd(labelWidth))}  ${text}`.trimEnd();
  });
  return `${lines.join('\n')}\n`;
}

/**
 * Horizontal bars in unicode blocks, with eighth-block precision so that close
 * values (a 91.4% and a 91.1% fit) still differ on screen.
 */
import { type Colors, colorsFor } from './color.js';

const EIGHTHS = ['', '▏', '▎', '▍', '▌', '▋', '▊', '▉'];

/** A bar `width` cells wide, filled to `fraction` (0..1); the rest is a light track. */
export function bar(fraction: number, width: number, track = '░'): string {
  const f = Number.isFinite(fraction) ? Math.min(1, Math.max(0, fraction)) : 0;
  const eighths = Math.round(f * width * 8);
  const full = Math.floor(eighths / 8);
  const part = EIGHTHS[eighths % 8];
  const used = full + (part ? 1 : 0);
  return '█'.repeat(full) + part + track.repeat(Math.max(0, width - used));
}

/** Five stars, `n` of them filled (★★★☆☆); n is clamped to 0..5. */
export function stars(n: number | null | undefined, of = 5): string {
  const k = Math.max(0, Math.min(of, Math.round(n ?? 0)));
  return '★'.repeat(k) + '☆'.repeat(of - k);
}

export interface ChartRow {
  label: string;
  value: number;
}

export interface ChartOptions {
  /** Total width of each line. */
  width: number;
  /** Colour allowed (io.colorStdout), or a painter from colorsFor. */
  color?: boolean | Colors;
  /** Scale: the value that fills a bar (default: the largest value). */
  max?: number;
  /** Adds each value's share of this total ("12  40%"); default the sum of values. */
  total?: number;
  /** Show shares as percentages (default true). */
  percent?: boolean;
}

/**
 * A small bar chart, one line per row: label, bar, count and share. Used for
 * distributions such as five-star scores in a group report:
 *
 *   ★★★★★  ██████████▌         21   42%
 */
export function renderBarChart(rows: ChartRow[], opts: ChartOptions): string {
  if (rows.length === 0) return '';
  const c = typeof opts.color === 'object' ? opts.color : colorsFor(Boolean(opts.color));
  const labelW = Math.max(...rows.map((r) => [...r.label].length));
  const countW = Math.max(...rows.map((r) => String(r.value).length));
  const total = opts.total ?? rows.reduce((a, r) => a + r.value, 0);
  const showPct = opts.percent !== false;
  const pctW = showPct ? 5 : 0;
  const max = opts.max ?? Math.max(...rows.map((r) => r.value));
  // label, two gaps, count, (gap + pct): the bar gets the rest, within reason.
  const barW = Math.max(5, Math.min(50, opts.width - labelW - countW - 4 - (showPct ? pctW + 2 : 0)));
  const lines = rows.map((r) => {
    const label = r.label + ' '.repeat(labelW - [...r.label].length);
    const b = bar(max > 0 ? r.value / max : 0, barW, ' ');
    const count = String(r.value).padStart(countW);
    const pct = showPct ? `  ${(total > 0 ? `${Math.round((100 * r.value) / total)}%` : '-').padStart(pctW)}` : '';
    return `${label}  ${c.cyan(b)}  ${count}${pct}`.trimEnd();
  });
  return `${lines.join('\n')}\n`;
}

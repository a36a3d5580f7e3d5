/**
 * The parts every page we write shares (`-o html`): one self-contained
 * document, CSS and SVG inline, no script, font or image from anywhere, that
 * reads the same with scripts off, in greyscale and to a colour-blind eye, and
 * prints on A4 and on Letter.
 *
 * - Markup is made only by the `html` tag (./html.ts): everything from the
 *   service or a CSV put into it is HTML-escaped (control and bidi characters
 *   shown as escapes, as on a terminal), whatever its type at run time; links
 *   only through `safeHref` (http and https, nothing else).
 * - Palette: one sequential blue scale (light to dark, so the order holds in
 *   greyscale and for every common colour-vision deficiency) and one orange
 *   for marks (the median); every colour also has a word or a number beside it.
 * - Every chart is an SVG with a title and a table or list that says the same.
 * - Print: charts and cards are never split; table headers repeat on each page;
 *   `@page` has no fixed size, so the browser's paper (A4 or Letter) is used,
 *   and the content is no wider than the narrower of the two.
 */
import { NUM } from '../number.js';
import { html, type Html, type HtmlValue, numberText, style } from './html.js';

/** An http(s) URL for an href (the tag escapes it); undefined for anything else (javascript:, data:, garbage). */
export function safeHref(url: unknown): string | undefined {
  if (typeof url !== 'string' || !url) return undefined;
  try {
    const u = new URL(url);
    return u.protocol === 'https:' || u.protocol === 'http:' ? u.href : undefined;
  } catch {
    return undefined;
  }
}

/** Sequential blues, light to dark (ColorBrewer "Blues"): index 0 is 1 star, 4 is 5 stars. */
export const BLUES = ['#c6dbef', '#9ecae1', '#6baed6', '#2171b5', '#08306b'] as const;
/** The one mark colour (median line), dashed as well so it reads without colour. */
export const MARK = '#d95f02';
const INK = '#1a1a1a';

/** A count or a number, grouped ("1,234"); the dash for anything that is not a finite number. */
export const fmt = (n: unknown): string => numberText(n, (v) => NUM.format(v));

/** 42 of 80 → "53%" ("–" for 0 of 0). */
export function pct(part: number, whole: number): string {
  return typeof part === 'number' && typeof whole === 'number' && whole > 0 ? `${Math.round((part / whole) * 100)}%` : '–';
}

/** ★★★☆☆ with the number for a screen reader and for a reader of the source. */
export function starsHtml(n: unknown): Html {
  if (typeof n !== 'number' || !Number.isFinite(n)) return html`<span class="stars" aria-label="no stars">–</span>`;
  const k = Math.max(0, Math.min(5, Math.round(n)));
  return html`<span class="stars" role="img" aria-label="${k} of 5 stars">${'★'.repeat(k)}<span class="off">${'☆'.repeat(5 - k)}</span></span>`;
}

/** The band of a five-star score: a word and a shade, so it reads without colour. */
export function bandOf(starsN: unknown): { name: string; cls: string } {
  if (typeof starsN !== 'number' || !Number.isFinite(starsN)) return { name: 'Not scored', cls: 'b0' };
  if (starsN >= 4) return { name: 'Strong', cls: 'b3' };
  if (starsN === 3) return { name: 'Moderate', cls: 'b2' };
  return { name: 'Weak', cls: 'b1' };
}

export interface BarRow {
  label: string;
  value: number;
  /** Text after the bar (default: the value, grouped). */
  note?: string;
  fill?: string;
}

/**
 * Horizontal bars as one SVG (a funnel, a star distribution): label, bar
 * scaled to `max` (default the largest value), and the value after it.
 */
export function hbarSvg(title: string, rows: BarRow[], opts: { max?: number; labelWidth?: number } = {}): Html {
  const rowH = 22;
  const labelW = opts.labelWidth ?? 90;
  const barW = 220;
  const width = labelW + barW + 90;
  const height = rows.length * rowH + 4;
  const value = (r: BarRow) => (typeof r.value === 'number' && Number.isFinite(r.value) ? r.value : 0);
  const max = opts.max ?? rows.reduce((m, r) => Math.max(m, value(r)), 1);
  const bars = rows.map((r, i) => {
    const y = i * rowH + 2;
    const w = max > 0 ? Math.max(value(r) > 0 ? 1 : 0, Math.round((value(r) / max) * barW)) : 0;
    const fill = r.fill ?? BLUES[3];
    return html`<text x="${labelW - 6}" y="${y + 15}" text-anchor="end">${r.label}</text><rect x="${labelW}" y="${y + 2}" width="${barW}" height="${rowH - 6}" class="track"/><rect x="${labelW}" y="${y + 2}" width="${w}" height="${rowH - 6}" fill="${fill}" stroke="${INK}" stroke-width="0.5"/><text x="${labelW + barW + 6}" y="${y + 15}">${r.note ?? fmt(r.value)}</text>`;
  });
  return svg(title, width, height, bars);
}

/**
 * A histogram of percentages in 10-point bins (0–9, 10–19, … 90–100), with a
 * dashed line and a label at the median.
 */
export function histogramSvg(title: string, bins: readonly number[], median: unknown): Html {
  const left = 34;
  const plotW = 300;
  const plotH = 110;
  const top = 16;
  const width = left + plotW + 10;
  const height = top + plotH + 30;
  const counts = bins.map((n) => (typeof n === 'number' && Number.isFinite(n) ? n : 0));
  const max = counts.reduce((m, n) => Math.max(m, n), 1);
  const bw = plotW / counts.length;
  const body: Html[] = [
    html`<line x1="${left}" y1="${top + plotH}" x2="${left + plotW}" y2="${top + plotH}" stroke="${INK}"/><line x1="${left}" y1="${top}" x2="${left}" y2="${top + plotH}" stroke="${INK}"/>`,
    html`<text x="${left - 4}" y="${top + 4}" text-anchor="end" class="small">${fmt(max)}</text><text x="${left - 4}" y="${top + plotH}" text-anchor="end" class="small">0</text>`,
  ];
  counts.forEach((n, i) => {
    const h = Math.round((n / max) * plotH);
    const x = left + i * bw;
    body.push(html`<rect x="${(x + 1).toFixed(1)}" y="${top + plotH - h}" width="${(bw - 2).toFixed(1)}" height="${h}" fill="${BLUES[3]}" stroke="${INK}" stroke-width="0.5"/>`);
  });
  for (let p = 0; p <= 100; p += 20) body.push(html`<text x="${(left + (p / 100) * plotW).toFixed(1)}" y="${top + plotH + 13}" text-anchor="middle" class="small">${p}%</text>`);
  if (typeof median === 'number' && Number.isFinite(median)) {
    const x = (left + (Math.min(100, Math.max(0, median)) / 100) * plotW).toFixed(1);
    body.push(html`<line x1="${x}" y1="${top - 4}" x2="${x}" y2="${top + plotH}" stroke="${MARK}" stroke-width="2.5" stroke-dasharray="5 3"/>`);
    body.push(html`<text x="${x}" y="${top - 6}" text-anchor="middle" class="small mark">median ${median}%</text>`);
  }
  body.push(html`<text x="${left + plotW / 2}" y="${height - 2}" text-anchor="middle" class="small">job fit %</text>`);
  return svg(title, width, height, body);
}

/** An SVG chart with its title (read aloud and shown on hover). */
export function svg(title: string, width: number, height: number, body: HtmlValue): Html {
  return html`<svg class="chart" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}" role="img" aria-label="${title}"><title>${title}</title>${body}</svg>`;
}

/** The 10-point bin of a percentage (100 falls in the last one). */
export function binOf(p: number): number {
  return Math.max(0, Math.min(9, Math.floor(p / 10)));
}

export const BIN_LABELS = Array.from({ length: 10 }, (_, i) => (i === 9 ? '90–100%' : `${i * 10}–${i * 10 + 9}%`));

const CSS = style`
*{box-sizing:border-box}
html{-webkit-print-color-adjust:exact;print-color-adjust:exact}
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,Helvetica,Arial,sans-serif;color:${INK};background:#fff;margin:0 auto;padding:16px 20px;max-width:186mm}
h1{font-size:22px;margin:0 0 4px}h2{font-size:18px;margin:22px 0 6px;border-bottom:2px solid ${BLUES[4]};padding-bottom:2px}
h3{font-size:14px;margin:10px 0 4px}
.meta{color:#444;margin:0 0 12px}.meta dt{font-weight:600;display:inline}.meta dd{display:inline;margin:0 14px 0 4px}
.cards{display:flex;flex-wrap:wrap;gap:10px 18px}
.card{flex:1 1 300px;min-width:0;break-inside:avoid;page-break-inside:avoid}
figure{margin:0;break-inside:avoid;page-break-inside:avoid}
figcaption{font-weight:600;margin:4px 0}
svg.chart{max-width:100%;height:auto;font-size:11px;font-family:inherit}
svg .small{font-size:9px}svg .mark{fill:${MARK};font-weight:700}svg .track{fill:#f2f2f2}
table{border-collapse:collapse;width:100%;margin:4px 0 8px}
th,td{border:1px solid #bbb;padding:2px 6px;text-align:left;vertical-align:top}
th{background:#eef3f8}
td.n,th.n{text-align:right;font-variant-numeric:tabular-nums}
table.equiv{font-size:12px;width:auto}
tr.total td{font-weight:700;border-top:2px solid ${INK}}
.stars{color:#8a5a00;letter-spacing:1px;white-space:nowrap}.stars .off{color:#999}
.band{display:inline-block;padding:0 6px;border-radius:3px;border:1px solid ${INK};font-size:12px;white-space:nowrap}
.b3{background:${BLUES[4]};color:#fff}.b2{background:${BLUES[2]};color:${INK}}.b1{background:${BLUES[0]};color:${INK}}.b0{background:#fff;color:${INK};border-style:dashed}
.note{color:#555;font-size:12px}
.riasec{font-size:28px;font-weight:700;letter-spacing:6px}
.gauge{white-space:nowrap;font-family:ui-monospace,monospace}
a{color:${BLUES[4]}}
section.group,section.person{break-before:auto}
@page{margin:12mm}
@media print{
 body{padding:0;max-width:none;font-size:11pt}
 section.group+section.group,section.person+section.person{break-before:page;page-break-before:always}
 thead{display:table-header-group}tfoot{display:table-footer-group}
 tr,td,th{break-inside:avoid;page-break-inside:avoid}
 h2,h3,figcaption{break-after:avoid;page-break-after:avoid}
 /* A long table may break between rows (kept whole it left pages blank), but never starts with one row at a page's foot. */
 figure:has(table.traits),figure:has(table.occupations),figure:has(table.ranked){break-inside:auto;page-break-inside:auto}
 tbody tr:nth-child(-n+3){break-before:avoid;page-break-before:avoid}
 /* Wide tables wrap inside the page rather than lose their right border past its edge. */
 table{max-width:100%}th,td{overflow-wrap:anywhere}
 /* A candidate's page is dense: the tables in a smaller type, so that one candidate takes two sheets, not three. */
 section.person table{font-size:8.5pt}section.person th,section.person td{padding:1px 4px}
 section.person .note{font-size:8pt}section.person svg.chart{max-height:120px;width:auto}
 a{color:${INK};text-decoration:none}
}
`;

/**
 * The page's policy, first in its head: nothing from outside, ever (no
 * script, font, image, frame or connection); no form may be sent anywhere
 * (`form-action 'none'`) and no `<base>` may redirect its links
 * (`base-uri 'none'`). A `<meta http-equiv>` of a stranger's (a refresh to
 * another page) cannot be written at all: every value is escaped by the tag.
 */
export const CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:; form-action 'none'; base-uri 'none'";
// The same policy as markup of ours, written out so a reader of the page's source sees it as it is (test/format/html.test.ts holds the two equal).
const CSP_META = html`<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:; form-action 'none'; base-uri 'none'">`;

/** The whole document's start: everything up to and including `<body>`. */
export function pageHead(title: string): Html {
  return html`<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">${CSP_META}<meta name="referrer" content="no-referrer"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${title}</title>${CSS}</head><body>
`;
}

export const PAGE_TAIL = html`</body></html>
`;

/** "Where the data came from": the header's definition list (empty values left out; only text and numbers shown). */
export function metaList(items: Array<[string, unknown]>): Html {
  const shown = items.filter((kv): kv is [string, string | number] => (typeof kv[1] === 'string' && kv[1] !== '') || typeof kv[1] === 'number');
  return html`<dl class="meta">${shown.map(([k, v]) => html`<dt>${k}</dt><dd>${v}</dd>`)}</dl>`;
}

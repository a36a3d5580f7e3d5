/**
 * The one sanitiser for text written for a person. Text from the service, a
 * CSV or a webhook sender is a stranger's: printed raw, a control character
 * would drive the terminal (set the title, clear the screen, plant a hidden
 * link with OSC 8, write the clipboard with OSC 52, overwrite a line with `\r`
 * or `\b`) and a bidi control would reverse what follows it. Each such
 * character is shown as a visible escape instead (`\x1b`, `\u202e`), never
 * obeyed.
 *
 * Applied to tables, rendered reports, notices, errors, trace lines, listener
 * lines and stub verbs, before any truncation (a cut can then never leave half
 * a sequence). Machine formats (json, ndjson, csv) keep the data exact and do
 * not pass here.
 */

/**
 * C0 controls but tab and newline, DEL, C1 controls (U+0080–U+009F: U+009B is
 * a one-character CSI on some terminals), the bidi controls: ALM, LRM/RLM,
 * the embeddings and overrides (U+202A–U+202E), and the isolates
 * (U+2066–U+2069); and the invisible ones that hide or fake text: the
 * zero-width space, joiners and word joiner (U+200B–U+200D, U+2060–U+2064,
 * U+180E, U+FEFF), the line and paragraph separators (U+2028/2029, a new line
 * to some terminals and to JavaScript readers of NDJSON), and the tag
 * characters (U+E0000–U+E007F); and, so no list of them can fall behind,
 * every format character (`\\p{Cf}`: the soft hyphen U+00AD, U+206A–U+206F,
 * the interlinear annotations U+FFF9–U+FFFB, the musical format U+1D173–) and
 * every default-ignorable code point (`\\p{Default_Ignorable_Code_Point}`: the
 * combining grapheme joiner U+034F, the Hangul fillers U+115F, U+1160, U+3164,
 * U+FFA0, U+17B4, the Mongolian selectors U+180B–, the variation selectors
 * U+FE00–U+FE0F and U+E0100–): each draws nothing, or nothing a reader sees as
 * a character. (U+2800, the blank Braille pattern, is neither, but draws
 * nothing: it is listed by name.)
 */
const INVISIBLE = '\\p{Cf}\\p{Default_Ignorable_Code_Point}\\u2800';
const SET = `\\x00-\\x08\\x0b-\\x1f\\x7f-\\x9f\\u061c\\u180e\\u200b-\\u200f\\u2028-\\u202e\\u2060-\\u2069\\ufeff\\u{e0000}-\\u{e007f}${INVISIBLE}`;
const UNSAFE = new RegExp(`[${SET}]`, 'gu');
const UNSAFE_TEST = new RegExp(`[${SET}]`, 'u');
// Same set plus newline and tab, for text that must stay on one line.
const UNSAFE_LINE = new RegExp(`[\\n\\t${SET}]`, 'gu');

function escapeChar(ch: string): string {
  const code = ch.codePointAt(0) ?? 0;
  if (code <= 0xff) return `\\x${code.toString(16).padStart(2, '0')}`;
  return code <= 0xffff ? `\\u${code.toString(16).padStart(4, '0')}` : `\\u{${code.toString(16)}}`;
}

/** Whether text holds a character the sanitiser escapes (newline and tab aside). */
export function hasUnsafe(text: string): boolean {
  return UNSAFE_TEST.test(text);
}

/** Text safe to write to a terminal: control and bidi characters shown as escapes; newline and tab kept. */
export function safeText(text: string): string {
  // Most text has nothing to escape: test once before building a new string.
  return UNSAFE_TEST.test(text) ? text.replace(UNSAFE, escapeChar) : text;
}

/** As safeText, with newline and tab escaped too (a table cell, a listener line field). */
export function safeLine(text: string): string {
  return text.replace(UNSAFE_LINE, escapeChar);
}


/**
 * A copy of a JSON value with every string (and key) passed through safeLine:
 * for renderers that lay out many fields of a foreign object (a rendered
 * report), so each field is made safe once, before widths are measured.
 */
export function safeDeep<T>(value: T): T {
  if (typeof value === 'string') return safeLine(value) as T;
  if (Array.isArray(value)) return value.map((v) => safeDeep(v)) as T;
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[safeLine(k)] = safeDeep(v);
    return out as T;
  }
  return value;
}

// What JSON.stringify leaves raw that a terminal may obey or hide: DEL, C1, bidi and invisible characters.
const JSON_SET = `\\x7f-\\x9f\\u061c\\u180e\\u200b-\\u200f\\u2028-\\u202e\\u2060-\\u2069\\ufeff\\u{e0000}-\\u{e007f}${INVISIBLE}`;
const JSON_UNSAFE = new RegExp(`[${JSON_SET}]`, 'gu');
const JSON_UNSAFE_TEST = new RegExp(`[${JSON_SET}]`, 'u');

const uEscape = (unit: number) => `\\u${unit.toString(16).padStart(4, '0')}`;

/**
 * JSON text (from JSON.stringify, which already escapes C0 controls) with the
 * C1, bidi and invisible characters written as `\u` escapes (a tag character
 * as its surrogate pair): the same data to any JSON reader, and nothing a
 * terminal obeys or hides when it lands on one.
 */
export function safeJson(text: string): string {
  return JSON_UNSAFE_TEST.test(text) ? text.replace(JSON_UNSAFE, (ch) => (ch.length === 2 ? uEscape(ch.charCodeAt(0)) + uEscape(ch.charCodeAt(1)) : uEscape(ch.charCodeAt(0)))) : text;
}

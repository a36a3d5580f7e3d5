/**
 * Markup that is escaped by construction. Every page we write (`-o html`) is
 * built only through the `html` tag: its literal parts are ours (a template
 * in this source), and every value put into it is escaped, whatever its type
 * at run time, unless it is itself `Html` made by the tag. A string, a number
 * that turned out to be a string, an object where a rank should be: each
 * becomes text, never markup. There is no way to turn a string into `Html`.
 *
 * eslint.config.js forbids markup anywhere else in src/format/html/ and the
 * fairness page (a string or an untagged template with `<` and a letter, `/`,
 * `!` or `?`), so a page cannot be built by concatenation around the tag
 * either (test/lint/html.test.ts).
 */
import { safeLine } from '../sanitize.js';

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text safe inside an element or a quoted attribute: HTML-escaped, control and bidi characters shown as escapes. */
function escapeText(s: string): string {
  return safeLine(s).replace(/[&<>"']/g, (c) => ENTITIES[c]);
}

/** Markup built by the `html` tag. Only the tag makes one. */
export class Html {
  readonly #text: string;
  private constructor(text: string, key: symbol) {
    if (key !== MINT) throw new TypeError('Html is made only by the html tag');
    this.#text = text;
  }
  /** @internal the tag's one way in. */
  static mint(text: string, key: symbol): Html {
    return new Html(text, key);
  }
  toString(): string {
    return this.#text;
  }
}
const MINT = Symbol('html');

/** What a template may hold: markup, text, a number, nothing, or a list of them. */
export type HtmlValue = Html | string | number | null | undefined | readonly HtmlValue[];

/** A value as markup: Html as it is, anything else as escaped text. */
function piece(v: unknown): string {
  if (v instanceof Html) return v.toString();
  if (v === null || v === undefined) return '';
  if (Array.isArray(v)) return v.map(piece).join('');
  if (typeof v === 'string') return escapeText(v);
  if (typeof v === 'number' || typeof v === 'boolean' || typeof v === 'bigint') return escapeText(String(v));
  // An object or a function where text was expected (a service's rank of
  // {"toString": 1}): nothing of it, rather than a crash or its markup.
  return '';
}

function isTemplate(strings: unknown): strings is TemplateStringsArray {
  return Array.isArray(strings) && Object.isFrozen(strings) && Array.isArray((strings as unknown as { raw?: unknown }).raw);
}

/**
 * The one way to write markup: html`<td>${name}</td>`. Refuses to be called
 * with anything but a template literal (a plain array of strings is not one).
 */
export function html(strings: TemplateStringsArray, ...values: HtmlValue[]): Html {
  if (!isTemplate(strings)) throw new TypeError('html is a template tag: html`...`');
  let out = strings[0];
  for (let i = 0; i < values.length; i++) out += piece(values[i]) + strings[i + 1];
  return Html.mint(out, MINT);
}

/**
 * A `<style>` element from a template of our own CSS. Its values are
 * constants of ours (colours, sizes); as a `<style>` is not escaped, a value
 * with anything but CSS's own characters, or any `<`, is refused.
 */
export function style(strings: TemplateStringsArray, ...values: Array<string | number>): Html {
  if (!isTemplate(strings)) throw new TypeError('style is a template tag: style`...`');
  for (const v of values) if (typeof v !== 'number' && !/^[#\w .,-]*$/.test(v)) throw new TypeError(`not a CSS constant: ${JSON.stringify(v)}`);
  const css = String.raw({ raw: strings }, ...values);
  if (css.includes('<')) throw new TypeError('a style sheet may not hold "<"');
  return Html.mint(`<style>${css.trim()}</style>`, MINT);
}

/** A number for a page: grouped and finite, else the dash; never a string that only claims to be one. */
export function numberText(v: unknown, format: (n: number) => string = String): string {
  return typeof v === 'number' && Number.isFinite(v) ? format(v) : '–';
}

import { describe, expect, it } from 'vitest';
import { renderKeyValue, renderTable } from '../../src/format/table.js';
import { colorsFor } from '../../src/format/color.js';
import { safeDeep, safeJson, safeLine, safeText } from '../../src/format/sanitize.js';

const opts = { tty: true, width: 40, color: colorsFor(false), now: new Date('2026-01-02T00:00:00Z') };

describe('the sanitiser', () => {
  it('shows C0 (but newline and tab), DEL, C1 and bidi controls as escapes and keeps the rest', () => {
    expect(safeText('a\x1b]0;t\x07b\r\bc\x7f\x9b\u202ed\u2066e\nf\tg')).toBe('a\\x1b]0;t\\x07b\\x0d\\x08c\\x7f\\x9b\\u202ed\\u2066e\nf\tg');
    expect(safeText('Zoë Ñandú 李 😀')).toBe('Zoë Ñandú 李 😀');
    expect(safeLine('a\nb\tc')).toBe('a\\x0ab\\x09c');
  });

  it('runs before truncation, so a cut never leaves half an escape sequence', () => {
    const out = renderTable([{ name: `${'x'.repeat(30)}\x1b]8;;https://evil.example/\x1b\\` }, { name: 'y' }], [{ key: 'name', header: 'NAME' }], { ...opts, width: 20 });
    expect(out).not.toContain('\x1b');
    expect(out.split('\n')[1]).toMatch(/^x+…$/);
    const kv = renderKeyValue([['email\x1b[2J', `a${'\u202e'.repeat(3)}b`]], opts);
    expect(kv).toBe('email\\x1b[2J  a\\u202e\\u202e\\u202eb\n');
  });

  it('leaves JSON data exact: C1 and bidi become \\u escapes a JSON reader decodes back', () => {
    const v = { name: 'a\u202eb\x9bc\x7f', n: 1 };
    const text = safeJson(JSON.stringify(v));
    expect(text).not.toMatch(/[\x7f-\x9f\u202e]/);
    expect(JSON.parse(text)).toEqual(v);
  });

  it('makes every string and key of a nested value safe', () => {
    expect(safeDeep({ 'k\x1b': ['v\r', { x: '\u202e' }], n: 2, z: null })).toEqual({ 'k\\x1b': ['v\\x0d', { x: '\\u202e' }], n: 2, z: null });
  });
});

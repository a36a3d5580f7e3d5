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

  it('shows the invisible and format code points as escapes: the 17 of issue 42 and their classes', () => {
    const hidden = [0xad, 0x34f, 0x115f, 0x1160, 0x3164, 0xffa0, 0x2800, 0xfe00, 0xfe0f, 0xe0100, 0x206a, 0x206f, 0xfff9, 0xfffb, 0x1d173, 0x180b, 0x17b4];
    for (const cp of hidden) {
      const ch = String.fromCodePoint(cp);
      const shown = safeText(`a${ch}b`);
      expect(shown, cp.toString(16)).not.toContain(ch);
      expect(shown).toMatch(/^a\\(x|u)\{?[0-9a-f]+\}?b$/);
      expect(safeLine(ch)).not.toContain(ch);
      const json = safeJson(JSON.stringify({ v: ch }));
      expect(json).not.toContain(ch);
      expect(JSON.parse(json)).toEqual({ v: ch });
    }
    // Every format character and default-ignorable code point, whatever Unicode adds.
    for (let cp = 0; cp <= 0x10ffff; cp++) {
      if (cp >= 0xd800 && cp <= 0xdfff) continue;
      const ch = String.fromCodePoint(cp);
      if (/[\p{Cf}\p{Default_Ignorable_Code_Point}]/u.test(ch) && safeText(ch) === ch) throw new Error(`U+${cp.toString(16)} passes`);
    }
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

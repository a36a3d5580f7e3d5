/**
 * A number cell of a workbook as the sheet displays it: its number format
 * applied (a phone stored as 14155550100 with the format `+0` reads
 * "+14155550100", a zip code with `00000` keeps its leading zero, a date
 * serial with `d/m/yyyy` reads "14/3/2024"). Only what a participant list
 * holds is rendered exactly: digit placeholders, literals, thousands
 * separators, decimals, percent, dates and times. Anything else (fractions,
 * conditions, scientific notation) falls back to the General rule: the
 * number in full, never in scientific notation.
 */

/** ECMA-376's built-in formats; the date ones in ISO order rather than the system's locale. */
const BUILTIN: Record<number, string> = {
  0: 'General',
  1: '0',
  2: '0.00',
  3: '#,##0',
  4: '#,##0.00',
  9: '0%',
  10: '0.00%',
  11: '0.00E+00',
  12: '# ?/?',
  13: '# ??/??',
  14: 'yyyy-mm-dd',
  15: 'd-mmm-yy',
  16: 'd-mmm',
  17: 'mmm-yy',
  18: 'h:mm AM/PM',
  19: 'h:mm:ss AM/PM',
  20: 'h:mm',
  21: 'h:mm:ss',
  22: 'yyyy-mm-dd h:mm',
  37: '#,##0 ;(#,##0)',
  38: '#,##0 ;(#,##0)',
  39: '#,##0.00;(#,##0.00)',
  40: '#,##0.00;(#,##0.00)',
  45: 'mm:ss',
  46: '[h]:mm:ss',
  47: 'mm:ss.0',
  48: '##0.0E+0',
  49: '@',
};

export function builtinFormat(id: number): string | undefined {
  return BUILTIN[id];
}

/** The General format: the number in full (no exponent for integers), without binary noise (0.1+0.2 → 0.3). */
export function generalNumber(v: number): string {
  if (!Number.isFinite(v)) return String(v);
  if (Number.isInteger(v) && Math.abs(v) < 1e21) return v.toFixed(0);
  // Excel shows very small or large non-integers with an exponent too.
  return String(Number(v.toPrecision(15)));
}

type Token = { lit: string } | { ch: string };

/** The sections of a format code (positive;negative;zero;text), split outside quotes and brackets. */
function sections(code: string): string[] {
  const out: string[] = [];
  let cur = '';
  let quoted = false;
  let bracket = false;
  for (let i = 0; i < code.length; i++) {
    const c = code[i];
    if (c === '\\' && !quoted && i + 1 < code.length) {
      cur += c + code[++i];
      continue;
    }
    if (c === '"') quoted = !quoted;
    else if (!quoted && c === '[') bracket = true;
    else if (!quoted && c === ']') bracket = false;
    if (c === ';' && !quoted && !bracket) {
      out.push(cur);
      cur = '';
      continue;
    }
    cur += c;
  }
  out.push(cur);
  return out;
}

/** A section as literals and format characters; colours and conditions dropped, `[$€-x]` kept as its symbol. */
function tokens(section: string): Token[] {
  const out: Token[] = [];
  for (let i = 0; i < section.length; i++) {
    const c = section[i];
    if (c === '"') {
      const end = section.indexOf('"', i + 1);
      const stop = end < 0 ? section.length : end;
      out.push({ lit: section.slice(i + 1, stop) });
      i = stop;
    } else if (c === '\\') {
      if (i + 1 < section.length) out.push({ lit: section[++i] });
    } else if (c === '_') {
      i++;
      out.push({ lit: ' ' });
    } else if (c === '*') {
      i++;
    } else if (c === '[') {
      const end = section.indexOf(']', i + 1);
      const stop = end < 0 ? section.length : end;
      const inner = section.slice(i + 1, stop);
      if (inner.startsWith('$')) {
        const sym = inner.slice(1).split('-')[0];
        if (sym) out.push({ lit: sym });
      } else if (/^(h+|m+|s+)$/i.test(inner)) {
        out.push({ ch: `[${inner.toLowerCase()}]` });
      }
      i = stop;
    } else if (/[$\-+/():!^&'~{}<>=\s]/.test(c) && !(c === '/' && /[0#?]/.test(section[i + 1] ?? ''))) {
      out.push({ lit: c });
    } else {
      out.push({ ch: c });
    }
  }
  return out;
}

const isDateTokens = (t: Token[]) =>
  t.some((x) => 'ch' in x && (/^[ydhsmDHSMYbBeE]$/.test(x.ch) || x.ch.startsWith('['))) &&
  !t.some((x) => 'ch' in x && (x.ch === '0' || x.ch === '#' || x.ch === '?'));

/** True when the format shows dates or times (the number is then a date serial). */
export function isDateFormat(code: string): boolean {
  if (/^general$/i.test(code.trim())) return false;
  const t = tokens(sections(code)[0]);
  // "E+00" is scientific notation, not a year.
  if (t.some((x) => 'ch' in x && /^[eE]$/.test(x.ch)) && t.some((x) => 'ch' in x && x.ch === '0')) return false;
  return isDateTokens(t.map((x) => ('ch' in x && /^[eE]$/.test(x.ch) ? { lit: x.ch } : x)));
}

function formatDigits(v: number, t: Token[]): string {
  let value = v;
  const chars = t.map((x) => ('ch' in x ? x.ch : ''));
  const pct = chars.filter((c) => c === '%').length;
  for (let i = 0; i < pct; i++) value *= 100;
  if (chars.some((c) => c === 'E' || c === 'e' || c === '/')) return generalNumber(value);
  const dot = t.findIndex((x) => 'ch' in x && x.ch === '.');
  const intT = dot < 0 ? t : t.slice(0, dot);
  const fracT = dot < 0 ? [] : t.slice(dot + 1);
  const isPh = (x: Token) => 'ch' in x && (x.ch === '0' || x.ch === '#' || x.ch === '?');
  const decimals = fracT.filter(isPh).length;
  if (value >= 1e21) return generalNumber(value);
  const fixed = value.toFixed(decimals);
  const [whole, fracDigits = ''] = fixed.split('.');
  let intDigits = whole;
  const intPh = intT.map((x, i) => (isPh(x) ? i : -1)).filter((i) => i >= 0);
  const grouping = intT.some((x, i) => 'ch' in x && x.ch === ',' && i > (intPh[0] ?? Infinity) && i < (intPh[intPh.length - 1] ?? -1));
  if (intDigits === '0' && !intT.some((x) => 'ch' in x && x.ch === '0')) intDigits = '';
  const out: string[] = intT.map((x) => ('lit' in x ? x.lit : isPh(x) ? '' : x.ch === ',' ? '' : x.ch === '%' ? '%' : x.ch));
  if (grouping) {
    // "#,##0": the digits grouped, padded to the zeros the pattern asks for.
    const zeros = intT.filter((x) => 'ch' in x && x.ch === '0').length;
    const grouped = intDigits.padStart(zeros, '0').replace(/\B(?=(\d{3})+(?!\d))/g, ',');
    out[intPh[0]] = grouped;
  } else if (intPh.length > 0) {
    // Digits fill the placeholders from the right; extra digits go to the first one.
    let d = intDigits.length - 1;
    for (let k = intPh.length - 1; k >= 0; k--) {
      const ph = (intT[intPh[k]] as { ch: string }).ch;
      if (k === 0 && d >= 0) out[intPh[k]] = intDigits.slice(0, d + 1);
      else if (d >= 0) out[intPh[k]] = intDigits[d];
      else out[intPh[k]] = ph === '0' ? '0' : ph === '?' ? ' ' : '';
      d--;
    }
  } else if (intDigits !== '' && intDigits !== '0') {
    out.push(intDigits);
  }
  let frac = '';
  if (dot >= 0) {
    const phs = fracT.filter(isPh).map((x) => (x as { ch: string }).ch);
    // Optional (#) decimals at the end drop their zeros.
    let keep = decimals;
    while (keep > 0 && phs[keep - 1] === '#' && fracDigits[keep - 1] === '0') keep--;
    let k = 0;
    for (const x of fracT) {
      if (isPh(x)) {
        if (k < keep) frac += fracDigits[k];
        else if ((x as { ch: string }).ch === '?') frac += ' ';
        k++;
      } else frac += 'lit' in x ? x.lit : x.ch;
    }
    if (keep > 0) frac = `.${frac}`;
  }
  return out.join('') + frac;
}

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
const DAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

/** A date serial as a UTC date (Excel's 1900 system counts a 29 February 1900 that never was). */
export function serialToDate(serial: number, date1904 = false): Date {
  const day = 86_400_000;
  if (date1904) return new Date(Date.UTC(1904, 0, 1) + Math.round(serial * day));
  const base = serial < 60 ? Date.UTC(1899, 11, 31) : Date.UTC(1899, 11, 30);
  return new Date(base + Math.round(serial * day));
}

function formatDate(v: number, t: Token[], date1904: boolean): string {
  const hasFraction = t.some((x) => 'ch' in x && x.ch === '.');
  // Rounded to the second, as the sheet shows it (unless it shows fractions of one).
  const d = serialToDate(hasFraction ? v : Math.round(v * 86_400) / 86_400, date1904);
  // Runs of the same letter are one token ("yyyy", "mm").
  const runs: Array<{ k: string; n: number } | { lit: string }> = [];
  for (let i = 0; i < t.length; i++) {
    const x = t[i];
    if ('lit' in x) {
      runs.push({ lit: x.lit });
      continue;
    }
    const c = x.ch;
    if (/^[aA]$/.test(c)) {
      const rest = t
        .slice(i, i + 5)
        .map((y) => ('ch' in y ? y.ch : 'lit' in y ? y.lit : ''))
        .join('');
      if (/^am\/pm/i.test(rest)) {
        runs.push({ k: 'ampm', n: 5 });
        i += 4;
        continue;
      }
      if (/^a\/p/i.test(rest)) {
        runs.push({ k: 'ap', n: 3 });
        i += 2;
        continue;
      }
    }
    const k = c.toLowerCase();
    const last = runs[runs.length - 1];
    if (last && 'k' in last && last.k === k && /^[ymdhs0]$/.test(k)) last.n++;
    else runs.push({ k, n: 1 });
  }
  const twelve = runs.some((r) => 'k' in r && (r.k === 'ampm' || r.k === 'ap'));
  const kinds = runs.map((r) => ('k' in r ? r.k : ''));
  const pad = (n: number, w: number) => String(n).padStart(w, '0');
  const hours = d.getUTCHours();
  let out = '';
  runs.forEach((r, i) => {
    if ('lit' in r) {
      out += r.lit;
      return;
    }
    switch (r.k) {
      case 'y':
      case 'e':
        out += r.n <= 2 ? pad(d.getUTCFullYear() % 100, 2) : String(d.getUTCFullYear());
        break;
      case 'm': {
        // Minutes after an hour or before seconds; a month otherwise.
        const prev = kinds.slice(0, i).reverse().find((k) => k !== '');
        const next = kinds.slice(i + 1).find((k) => k !== '');
        if (r.n <= 2 && (prev === 'h' || prev === '[h]' || next === 's' || next === '[s]')) out += pad(d.getUTCMinutes(), r.n);
        else if (r.n <= 2) out += pad(d.getUTCMonth() + 1, r.n);
        else if (r.n === 3) out += MONTHS[d.getUTCMonth()].slice(0, 3);
        else if (r.n === 5) out += MONTHS[d.getUTCMonth()][0];
        else out += MONTHS[d.getUTCMonth()];
        break;
      }
      case 'd':
        if (r.n <= 2) out += pad(d.getUTCDate(), r.n);
        else if (r.n === 3) out += DAYS[d.getUTCDay()].slice(0, 3);
        else out += DAYS[d.getUTCDay()];
        break;
      case 'h':
        out += pad(twelve ? hours % 12 || 12 : hours, Math.min(r.n, 2));
        break;
      case 's':
        out += pad(d.getUTCSeconds(), Math.min(r.n, 2));
        break;
      case '[h]':
        out += String(Math.floor(v * 24));
        break;
      case '[mm]':
      case '[m]':
        out += String(Math.floor(v * 1440));
        break;
      case '[ss]':
      case '[s]':
        out += String(Math.floor(v * 86_400));
        break;
      case '.':
        out += '.';
        break;
      case '0':
        out += pad(Math.floor(d.getUTCMilliseconds() / 10 ** (3 - Math.min(r.n, 3))), Math.min(r.n, 3));
        break;
      case 'ampm':
        out += hours < 12 ? 'AM' : 'PM';
        break;
      case 'ap':
        out += hours < 12 ? 'A' : 'P';
        break;
      default:
        out += r.k;
    }
  });
  return out;
}

/** A number cell's text as the sheet displays it with this format code. */
export function formatNumber(v: number, code: string | undefined, date1904 = false): string {
  if (!code || /^general$/i.test(code.trim()) || code.trim() === '@') return generalNumber(v);
  const secs = sections(code);
  let section = secs[0];
  let value = v;
  let sign = '';
  if (v < 0 && secs.length >= 2 && secs[1] !== '') {
    section = secs[1];
    value = -v;
  } else if (v === 0 && secs.length >= 3 && secs[2] !== '') {
    section = secs[2];
  } else if (v < 0) {
    sign = '-';
    value = -v;
  }
  if (/^\s*general\s*$/i.test(section) || section.trim() === '@') return sign + generalNumber(value);
  const t = tokens(section);
  if (isDateFormat(section)) {
    if (v < 0) return generalNumber(v);
    return formatDate(v, t, date1904);
  }
  try {
    return sign + formatDigits(value, t);
  } catch {
    return generalNumber(v);
  }
}

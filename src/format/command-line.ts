/**
 * A command we print for the user to paste (`Resume with: jobfit invite …`),
 * quoted for the shell they have: a POSIX shell on Linux and macOS, and on
 * Windows PowerShell (the default of Windows Terminal) or cmd.exe.
 *
 * On Windows a word that needs quoting is put in double quotes when both
 * shells read that back as the same text (a path with spaces or accents, the
 * common case); else in PowerShell's literal single quotes; a name with an
 * invisible character (Windows names cannot hold control characters, but
 * can hold bidi and zero-width ones) gets PowerShell's `$([char]0x…)`, so
 * the terminal shows only text and PowerShell reads back the same name.
 */
import { hasUnsafe } from './sanitize.js';

export type PasteShell = 'posix' | 'windows';

/** The shell a person on this platform pastes into. */
export function shellOf(platform: NodeJS.Platform = process.platform): PasteShell {
  return platform === 'win32' ? 'windows' : 'posix';
}

/** A command line: each word quoted as that shell needs. */
export function commandLine(words: readonly string[], shell: PasteShell): string {
  return words.map((w) => quoteWord(w, shell)).join(' ');
}

export function quoteWord(s: string, shell: PasteShell): string {
  return shell === 'windows' ? windowsWord(s) : posixWord(s);
}

function posixWord(s: string): string {
  if (/^[A-Za-z0-9_./@:=,+-]+$/.test(s)) return s;
  if (!hasUnsafe(s) && !/[\n\t]/.test(s)) return `'${s.replace(/'/g, `'\\''`)}'`;
  // A control or invisible character: ANSI-C quoting (bash, zsh), which a
  // terminal shows as text and a shell reads back as the same name.
  let q = '';
  for (const ch of s) {
    const code = ch.codePointAt(0) ?? 0;
    if (ch === '\\' || ch === "'") q += `\\${ch}`;
    else if (!hasUnsafe(ch) && ch !== '\n' && ch !== '\t') q += ch;
    else if (code <= 0xff) q += `\\x${code.toString(16).padStart(2, '0')}`;
    else if (code <= 0xffff) q += `\\u${code.toString(16).padStart(4, '0')}`;
    else q += `\\U${code.toString(16).padStart(8, '0')}`;
  }
  return `$'${q}'`;
}

// PowerShell takes the typographic quotes as quotes too: ‘ ’ ‚ ‛ as ', “ ” „ as ".
const PS_SINGLE = /['\u2018\u2019\u201a\u201b]/g;
const PS_DOUBLE = /["\u201c\u201d\u201e]/;

function windowsWord(s: string): string {
  // Bare: letters (any script), digits and the characters neither shell gives a meaning
  // to at the start or inside a word (no @ or , : PowerShell's splatting and arrays).
  if (/^[\p{L}\p{N}_.\\/:=+-]+$/u.test(s)) return s;
  if (hasUnsafe(s) || /[\n\t]/.test(s)) return powershellExpanding(s);
  // Double quotes mean the same to both when nothing inside expands: $ and ` (PowerShell), % (cmd).
  if (!/[$`%]/.test(s) && !PS_DOUBLE.test(s)) return `"${s}"`;
  return `'${s.replace(PS_SINGLE, (q) => q + q)}'`;
}

/** A PowerShell double-quoted string: each invisible character as $([char]0x…), $ ` and " escaped with a backtick. */
function powershellExpanding(s: string): string {
  let q = '';
  for (const ch of s) {
    const code = ch.codePointAt(0) ?? 0;
    if (ch === '$' || ch === '`' || PS_DOUBLE.test(ch)) q += `\`${ch}`;
    else if (!hasUnsafe(ch) && ch !== '\n' && ch !== '\t') q += ch;
    else if (code <= 0xffff) q += `$([char]0x${code.toString(16).padStart(4, '0')})`;
    else q += `$([char]::ConvertFromUtf32(0x${code.toString(16)}))`;
  }
  return `"${q}"`;
}

/**
 * The commands jobfit prints for pasting (bulk invite's "Resume with: …"),
 * quoted for the platform's shell: POSIX on Linux and macOS; on Windows words
 * that PowerShell and cmd.exe both read back as they are, else PowerShell's.
 * The platform is passed in: no Windows needed.
 */
import { describe, expect, it } from 'vitest';
import { resumeCommand } from '../../src/bulk/finish.js';
import type { BulkRunOptions } from '../../src/bulk/types.js';
import { commandLine, quoteWord, shellOf } from '../../src/format/command-line.js';

const opts = (o: Partial<BulkRunOptions>) => ({ csv: 'people.csv', ...o }) as BulkRunOptions;

describe('resumeCommand, by platform', () => {
  const csv = 'C:\\Users\\Zoë Müller\\Downloads\\Kandidaten.csv';
  const out = 'C:\\Users\\Zoë Müller\\Downloads\\Kandidaten.results.csv';

  it('on Windows: a path with a space and accents in double quotes, which PowerShell and cmd.exe both take', () => {
    expect(resumeCommand(opts({ csv, createdBy: 'dana@example.com', yes: true }), out, 'win32')).toBe(
      'jobfit invite --csv "C:\\Users\\Zoë Müller\\Downloads\\Kandidaten.csv" --out "C:\\Users\\Zoë Müller\\Downloads\\Kandidaten.results.csv" --resume --created-by "dana@example.com" --yes',
    );
  });

  it('on Linux and macOS: POSIX single quotes, as before', () => {
    const posix = resumeCommand(opts({ csv: '/home/zoë/Kandidaten Liste.csv', retryFailed: true }), "/home/zoë/it's.csv", 'linux');
    expect(posix).toBe("jobfit invite --csv '/home/zoë/Kandidaten Liste.csv' --out '/home/zoë/it'\\''s.csv' --retry-failed");
    expect(resumeCommand(opts({ csv: 'a b.csv' }), 'r.csv', 'darwin')).toBe("jobfit invite --csv 'a b.csv' --out r.csv --resume");
  });

  it('standard input: `< SAME_FILE` in a POSIX shell; on Windows --csv SAME_FILE (PowerShell has no `<`)', () => {
    expect(resumeCommand(opts({ csv: '-' }), 'r.csv', 'linux')).toBe('jobfit invite --csv - --out r.csv --resume < SAME_FILE');
    expect(resumeCommand(opts({ csv: '-' }), 'C:\\x\\r.csv', 'win32')).toBe('jobfit invite --csv SAME_FILE --out C:\\x\\r.csv --resume');
  });

  it('on Windows, --map and a template name with spaces quoted the same way', () => {
    expect(resumeCommand(opts({ maps: ['email=E-Mail Adresse'], template: 'Standard Einladung' }), 'r.csv', 'win32')).toBe(
      'jobfit invite --csv people.csv --out r.csv --resume --template "Standard Einladung" --map "email=E-Mail Adresse"',
    );
  });
});

describe('quoteWord on Windows', () => {
  const w = (s: string) => quoteWord(s, 'windows');
  it('plain words and paths stay bare', () => {
    expect(w('C:\\Users\\Zoë\\r.csv')).toBe('C:\\Users\\Zoë\\r.csv');
    expect(w('--resume')).toBe('--resume');
    expect(w('email=Mail')).toBe('email=Mail');
  });
  it("what PowerShell gives a meaning to bare (@ , ; & | ( ) { } #) is quoted", () => {
    for (const s of ['a@b.com', 'a,b', 'a;b', 'a&b', 'a|b', '(a)', '{a}', '#a']) expect(w(s)).toBe(`"${s}"`);
  });
  it('$, ` and % expand inside double quotes (PowerShell, cmd.exe): PowerShell single quotes, a quote doubled', () => {
    expect(w('C:\\$recycle bin\\x.csv')).toBe("'C:\\$recycle bin\\x.csv'");
    expect(w('100% sure.csv')).toBe("'100% sure.csv'");
    expect(w("Zoë's `list`.csv")).toBe("'Zoë''s `list`.csv'");
  });
  it('a typographic quote is a quote to PowerShell: doubled, or the word single-quoted', () => {
    expect(w('O’Brien.csv')).toBe('"O’Brien.csv"');
    expect(w('O’Brien $5.csv')).toBe("'O’’Brien $5.csv'");
    expect(w('„Liste“.csv')).toBe("'„Liste“.csv'");
  });
  it('an invisible character is written as PowerShell $([char]0x…), never raw', () => {
    const q = w('a\u202Eb$c.csv');
    expect(q).toBe('"a$([char]0x202e)b`$c.csv"');
    expect(q).not.toContain('\u202E');
    expect(w('x\u{E0041}.csv')).toBe('"x$([char]::ConvertFromUtf32(0xe0041)).csv"');
  });
});

describe('the shell of a platform', () => {
  it('win32 is Windows; the others POSIX', () => {
    expect(shellOf('win32')).toBe('windows');
    expect(shellOf('linux')).toBe('posix');
    expect(shellOf('darwin')).toBe('posix');
    expect(commandLine(['jobfit', 'a b'], 'posix')).toBe("jobfit 'a b'");
  });
});

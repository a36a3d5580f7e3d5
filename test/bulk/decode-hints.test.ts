import { describe, expect, it } from 'vitest';
import { convertHint, notCsvHint } from '../../src/bulk/decode.js';

// The hint under a refused CSV names a tool the user's platform has: iconv
// and gunzip are not on a Windows machine, Notepad is.
describe('the hint for a file that is not UTF-8 CSV', () => {
  it('on Linux and macOS names iconv, with the path quoted for a POSIX shell', () => {
    const hint = convertHint("Kandidaten Zoë's.csv", 'windows-1252', 'posix');
    expect(hint).toContain(`iconv -f windows-1252 -t utf-8 'Kandidaten Zoë'\\''s.csv' > 'Kandidaten Zoë'\\''s.utf8.csv'`);
  });

  it('on Windows names Notepad and Excel, never iconv', () => {
    const hint = convertHint('C:\\Users\\Zoë Müller\\people.csv', 'windows-1252', 'windows');
    expect(hint).not.toMatch(/iconv/);
    expect(hint).toContain('"C:\\Users\\Zoë Müller\\people.csv" in Notepad');
    expect(hint).toContain('Excel');
  });

  it('names the UTF-16 variant for iconv and no Unix tool for a gzip file on Windows', () => {
    expect(notCsvHint('UTF-16 BE text', 'posix')).toContain('iconv -f utf-16be');
    expect(notCsvHint('UTF-16 LE text', 'windows')).toContain('Notepad');
    expect(notCsvHint('a gzip archive', 'windows')).not.toMatch(/gunzip/);
    expect(notCsvHint('a gzip archive', 'posix')).toContain('gunzip -k FILE');
  });
});

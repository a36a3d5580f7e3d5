/**
 * Real-world CSV files the first round of fixtures did not cover (Excel's
 * `sep=` line and "Unicode text", Windows-1252, pipes, ragged rows, workbooks,
 * unreadable paths, huge cells, 100,000 rows on stdin): each is read correctly
 * or refused with one sentence and exit 2, never a stack trace, a dropped row
 * or a shifted results line.
 */
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { skipBecause } from '../helpers/skip.js';
import { fitCells } from '../../src/bulk/check.js';
import { runCli } from '../helpers/cli.js';
import { expectAllValid, fx, INVITER, readResults, useBulkStub } from './harness.js';

const { h, invite, send } = useBulkStub('jobfit-bulk-unseen-');
const dryRun = (path: string, more: string[] = []) => invite(['--csv', path, '--created-by', INVITER, '--dry-run', ...more]);

/** Refused: exit 2, the sentence, no stack trace, one "Error:" line. */
function expectRefused(r: { code: number; stderr: string; stdout: string }, message: RegExp) {
  expect(r.code, r.stderr).toBe(2);
  expect(r.stderr).toMatch(message);
  expect(r.stderr).not.toMatch(/\n\s+at /);
  expect(r.stderr.match(/^Error:/gm)).toHaveLength(1);
  expect(r.stdout).toBe('');
}

describe('files that are read (dry run)', () => {
  it.each([
    ['excel-sep-line.csv', 2],
    ['excel-unicode-text-utf16le.csv', 2],
    ['utf16be-bom.csv', 1],
    ['tab-separated.csv', 1],
    ['pipe-separated.csv', 1],
    ['messy-header.csv', 2],
    ['delimiters-only.csv', 2],
    ['cr-only.csv', 2],
  ])('%s: %i valid rows', async (name, rows) => {
    const r = await dryRun(fx(name));
    expectAllValid(r, rows);
  });

  it("Excel's sep=; line sets the delimiter and is not the header; results have no sep line", async () => {
    const { out } = await send(fx('excel-sep-line.csv'), 'sep');
    const lines = readResults(out);
    expect(lines[0]).toBe('First Name;Last Name;Email;Team;row;status;invitation_id;assessment_url;error');
    expect(lines[1]).toMatch(/^Søren;Sep;soren\.sep@example\.com;Retail Stores;1;created;\d+;http/);
    expect(lines).toHaveLength(3);
  });

  it('UTF-16 LE "Unicode text" (tab-separated, BOM) is decoded: names arrive intact, results are UTF-8', async () => {
    const { out } = await send(fx('excel-unicode-text-utf16le.csv'), 'utf16');
    const raw = readFileSync(out);
    expect([...raw.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const lines = readResults(out);
    expect(lines[1]).toMatch(/^Zoë\tÅngström\tzoe\.utf16@example\.com\tRetail Stores\t1\tcreated\t\d+\t/);
    const id = lines[2].split('\t')[6];
    const got = JSON.parse((await runCli(['invitations', 'get', id, '-o', 'json'], { env: h.env })).stdout);
    expect([got.first_name, got.last_name]).toEqual(['José', 'Núñez']);
  });

  it('Windows-1252 (Excel\'s plain "CSV (Comma delimited)") is read as such, said once; results are UTF-8 with a BOM for Excel', async () => {
    const { out, r } = await send(fx('windows-1252.csv'), 'cp1252');
    expect(r.stderr.match(/is not UTF-8: read as Windows-1252/g)).toHaveLength(1);
    expect([...readFileSync(out).subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const lines = readResults(out);
    expect(lines[2]).toMatch(/^René,Müller,rene\.cp@example\.com,“smart quotes”,2,created,\d+,/);
  });

  it('a file that starts as UTF-8 and has a Windows-1252 byte later is still refused, naming the line', async () => {
    const f = join(h.dir, 'mixed.csv');
    const head = `First Name,Last Name,Email\n${'Ana,Diaz,ana.mixed@example.com\n'.repeat(3000)}`;
    writeFileSync(f, Buffer.concat([Buffer.from(head, 'utf8'), Buffer.from('Ren\xe9,M\xfcller,rene.mixed@example.com\n', 'latin1')]));
    expectRefused(await dryRun(f), /is not UTF-8 text \(invalid bytes on line 3002\)/);
  });

  it('header cells with spaces, quotes, other case, an empty middle and a trailing empty cell', async () => {
    const { out } = await send(fx('messy-header.csv'), 'messy');
    const lines = readResults(out);
    expect(lines[0]).toBe('first name,LAST NAME,E-Mail Address,,Team,,row,status,invitation_id,assessment_url,error');
    expect(lines[1]).toMatch(/^Hed,Messy,hed\.messy@example\.com,,Retail Stores,,1,created,\d+,/);
  });

  it('lines of only delimiters and of whitespace are skipped; the last line without a newline is read; line numbers stay exact', async () => {
    const f = join(h.dir, 'lines.csv');
    writeFileSync(f, 'First Name,Last Name,Email\n,,,,\n   \nDel,Ims,not-an-email\n,,\nNo,Newline,no.newline.lines@example.com');
    const r2 = await dryRun(f);
    expect(r2.stdout).toContain('2 rows, 1 valid, 1 invalid');
    expect(r2.stdout).toContain('line 4 (row 1, not-an-email): email: Invalid email address');
  });

  it('CR-only (classic Mac) line endings, with a quoted CR inside a field', async () => {
    const { out } = await send(fx('cr-only.csv'), 'cr');
    const lines = readResults(out);
    expect(lines).toHaveLength(3);
    expect(lines[2]).toMatch(/^"Multi\rLine",Mac,multi\.mac@example\.com,2,created,/);
  });

  it('a stray quote inside an unquoted field is kept as written; text after a closing quote is refused naming the line', async () => {
    const f = join(h.dir, 'midquote.csv');
    writeFileSync(f, 'First Name,Last Name,Email\nDan,O"Brien,dan.obrien@example.com\n');
    const { out } = await send(f, 'midquote');
    expect(readResults(out)[1]).toMatch(/^Dan,"O""Brien",dan\.obrien@example\.com,1,created,/);
    expectRefused(await dryRun(fx('stray-quotes.csv')), /has text after a closing double quote in the record starting on line 3\./);
  });
});

describe('rows of the wrong shape', () => {
  it('more cells than the header, fewer, or the header again: a clear reason per row, never a crash', async () => {
    const r = await dryRun(fx('ragged-rows.csv'));
    expect(r.code).toBe(3);
    expect(r.stdout).toContain('4 rows, 2 valid, 2 invalid');
    expect(r.stdout).toContain('line 3 (row 2): (row): has 5 fields but the header has 4');
    expect(r.stdout).toContain('line 4 (row 3): (row): has 2 fields but the header has 4 (a missing delimiter?)');
    // A short row whose missing cells are optional is fine (some exporters drop trailing empty cells).
    expect(r.stdout).not.toContain('rag.short@example.com');

    const rep = await dryRun(fx('repeated-header.csv'));
    expect(rep.code).toBe(3);
    expect(rep.stdout).toContain('line 3 (row 2, Email): (row): is the header line again');
  });

  it('the results file keeps every column in place: trailing empty cells dropped, extra cells joined into the last column', async () => {
    const f = join(h.dir, 'trailing.csv');
    writeFileSync(f, 'First Name,Last Name,Email\nTrail,Ing,trail.ing@example.com,\nMore,Cells,more.cells@example.com,extra,x\n');
    const { out } = await send(f, 'trailing', ['--skip-invalid'], 3);
    const lines = readResults(out);
    expect(lines[1]).toMatch(/^Trail,Ing,trail\.ing@example\.com,1,created,\d+,http/);
    expect(lines[2]).toBe('More,Cells,"more.cells@example.com,extra,x",2,invalid,,,(row): has 5 fields but the header has 3 (a delimiter inside an unquoted field?)');
    expect(fitCells(['a', 'b', 'c', '', ''], 3, ',')).toEqual(['a', 'b', 'c']);
    expect(fitCells(['a', 'b', 'c', 'd', ''], 3, ';')).toEqual(['a', 'b', 'c;d']);
    expect(fitCells(['a'], 3, ',')).toEqual(['a']);
  });
});

describe('cells', () => {
  it('emails with spaces and capitals are one participant; assessment lists in several forms', async () => {
    const r = await dryRun(fx('emails-case.csv'));
    expect(r.code).toBe(3);
    expect(r.stdout).toContain('3 rows, 2 valid, 1 invalid');
    expect(r.stdout).toContain('line 3 (row 2, upper.case@example.com): email: Duplicate email in the file (first on row 1)');
    const { out } = await send(fx('emails-case.csv'), 'emails', ['--skip-invalid'], 3);
    const lines = readResults(out);
    const get = async (line: string) => JSON.parse((await runCli(['invitations', 'get', line.split(',').at(-3)!, '-o', 'json'], { env: h.env })).stdout);
    const first = await get(lines[1]);
    expect(first.email.toLowerCase()).toBe('upper.case@example.com');
    expect(first.invitation_assessments.map((a: { id: number }) => a.id).sort()).toEqual([6, 8]);
    const plus = await get(lines[3]);
    expect(plus.invitation_assessments.map((a: { id: number }) => a.id).sort()).toEqual([6, 8]);
  });

  it('local phone numbers with a Country column become E.164; without one the reason says how to fix it', async () => {
    const r = await dryRun(fx('phones-local.csv'));
    expect(r.code).toBe(3);
    expect(r.stdout).toContain('6 rows, 4 valid, 2 invalid');
    expect(r.stdout).toContain('uk.nohint@example.com): phone: Invalid phone number (without a +country code it is read as a US number');
    expect(r.stdout).toContain('bad.country@example.com): phone_country: "Narnia" is not a country');
    const { out } = await send(fx('phones-local.csv'), 'phones', ['--skip-invalid'], 3);
    const lines = readResults(out);
    const phone = async (i: number) => JSON.parse((await runCli(['invitations', 'get', lines[i].split(',').at(-3)!, '-o', 'json'], { env: h.env })).stdout).phone;
    expect(await phone(1)).toBe('+442079460958');
    expect(await phone(2)).toBe('+14155550101');
    expect(await phone(3)).toBe('+4930901820');
    expect(await phone(4)).toBe('+442079460000');
  });

  it('--phone-country reads numbers without +country code of rows with no Country cell; a Country cell still wins', async () => {
    // The fixture's 07700 900123 is in Ofcom's drama range: read as GB it has a possible length but no listed range,
    // and the row asks for an SMS, so it is refused (issue 44: an email-only row would go, with a note).
    const d = await dryRun(fx('phones-local.csv'), ['--phone-country', 'gb']);
    expect(d.code).toBe(3);
    expect(d.stdout).toContain('uk.nohint@example.com): phone: 07700 900123 is not in a range of numbers in use (libphonenumber), so an SMS may not arrive');
    expect(d.stdout).toContain('bad.country@example.com): phone_country: "Narnia" is not a country');
    const csv = join(h.dir, 'phones-gb.csv');
    writeFileSync(
      csv,
      'First Name,Last Name,Email,Phone,Country,Send Via\nGb,Mobile,gb.mobile@example.com,07911 123456,,sms\nDe,Cell,de.cell@example.com,030 901820,Germany,sms\nUs,Plus,us.plus@example.com,+1 415 555 0102,,sms\n',
    );
    const { out } = await send(csv, 'phones-gb', ['--phone-country', 'GB']);
    const lines = readResults(out);
    const phone = async (i: number) => JSON.parse((await runCli(['invitations', 'get', lines[i].split(',').at(-3)!, '-o', 'json'], { env: h.env })).stdout).phone;
    expect(await phone(1)).toBe('+447911123456');
    expect(await phone(2)).toBe('+4930901820');
    expect(await phone(3)).toBe('+14155550102');
  });

  it('an unknown --phone-country is refused before anything is read or sent', async () => {
    expectRefused(await dryRun(fx('phones-local.csv'), ['--phone-country', 'Narnia']), /--phone-country "Narnia" is not a country/);
  });

  it('a single invite takes --phone-country for its --phone', async () => {
    const r = await runCli(
      ['invite', '--first-name', 'Ana', '--last-name', 'Gb', '--email', 'ana.gb@example.com', '--created-by', INVITER, '--phone', '07911 123457', '--phone-country', 'GB', '--send-via', 'sms', '-o', 'json'],
      { env: h.env },
    );
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).phone).toBe('+447911123457');
  });

  it('a cell near 1 MB is read; a record over 1 MB is refused naming its line', async () => {
    const ok = join(h.dir, 'long-ok.csv');
    writeFileSync(ok, `First Name,Last Name,Email,Notes\nLong,Cell,long.ok@example.com,${'x'.repeat(1000 * 1000)}\n`);
    const r = await dryRun(ok);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('1 row, 1 valid');
    const big = join(h.dir, 'long.csv');
    writeFileSync(big, `First Name,Last Name,Email,Notes\nA,B,a.b.long@example.com,short\nLong,Cell,long.cell@example.com,${'x'.repeat(1024 * 1024)}\n`);
    expectRefused(await dryRun(big), /has a record over 1 MB starting on line 3/);
  });
});

describe('files that are refused (exit 2, one sentence)', () => {
  it.each([
    // A damaged .xlsx (the first bytes of one); real workbooks are read (test/bulk/xlsx.test.ts).
    ['workbook.xlsx', /could not be read as an Excel workbook: its zip structure is damaged/],
    ['workbook.xls', /is an Excel 97-2003 workbook \(\.xls\), which is not read: open it in Excel and save it as "Excel Workbook \(\.xlsx\)"/],
    ['people.csv.gz', /is not a CSV file: it looks like a gzip archive\.\nHint: unpack it first/],
    ['utf16le-no-bom.csv', /it looks like UTF-16 LE text without a byte order mark\.\nHint: .*iconv -f utf-16le -t utf-8/],
    ['empty.csv', /is empty: there is no header line/],
    ['header-only.csv', /has a header but no rows\./],
  ])('%s', async (name, message) => {
    expectRefused(await dryRun(fx(name)), message);
    // The same without --dry-run.
    expectRefused(await invite(['--csv', fx(name), '--created-by', INVITER, '--out', join(h.dir, `${name}.results.csv`)]), message);
  });

  it('a directory, a missing file', async () => {
    const d = join(h.dir, 'a-directory.csv');
    mkdirSync(d);
    expectRefused(await dryRun(d), /a-directory\.csv is a directory, not a CSV file or a workbook\./);
    expectRefused(await dryRun(join(h.dir, 'missing.csv')), /No such file: .*missing\.csv\./);
  });

  it.skipIf(skipBecause(process.getuid?.() === 0 && 'root reads a chmod 000 file: the unreadable-file test needs another user'))('an unreadable file (chmod 000)', async () => {
    const f = join(h.dir, 'locked.csv');
    writeFileSync(f, 'First Name,Last Name,Email\nLo,Cked,lo.cked@example.com\n');
    chmodSync(f, 0o000);
    expectRefused(await dryRun(f), /Cannot read .*locked\.csv: permission denied\./);
  });

  it.skipIf(skipBecause(process.platform !== 'linux' && 'the EIO test reads /proc/self/mem, on Linux only'))('a file whose read fails (EIO from /proc/self/mem)', async () => {
    expectRefused(await dryRun('/proc/self/mem'), /Cannot read \/proc\/self\/mem: an input\/output error\./);
  });
});

describe('more shapes', () => {
  it('a BOM before the sep= line; a file of only a BOM, only blank lines, or only a sep= line', async () => {
    const f = (name: string, bytes: Buffer | string) => {
      const p = join(h.dir, name);
      writeFileSync(p, bytes);
      return p;
    };
    const ok = await dryRun(f('bom-sep.csv', '\uFEFFsep=;\nFirst Name;Last Name;Email\nBom;Sep;bom.sep@example.com\n'));
    expect(ok.stdout).toContain('1 row, 1 valid, 0 invalid');
    expectRefused(await dryRun(f('bom-only.csv', Buffer.from([0xef, 0xbb, 0xbf]))), /is empty: there is no header line/);
    expectRefused(await dryRun(f('blank-only.csv', '\n\n\r\n   \n')), /is empty: there is no header line/);
    expectRefused(await dryRun(f('sep-only.csv', 'sep=;\n')), /is empty: there is no header line/);
  });

  it('a title line above the header is skipped and named; a file with no header at all names its first line', async () => {
    const p = join(h.dir, 'title.csv');
    writeFileSync(p, 'Candidate export 2024-05-01,,\nFirst Name,Last Name,Email\nA,B,ab.title@example.com\n');
    const r = await dryRun(p);
    expectAllValid(r, 1);
    expect(r.stderr).toContain('the header is on line 2; the line above it skipped (line 1: "Candidate export 2024-05-01")');
    const none = join(h.dir, 'no-header.csv');
    writeFileSync(none, 'Candidate export 2024-05-01,,\nA,B,ab.title@example.com\n');
    expectRefused(await dryRun(none), /its header is: "Candidate export 2024-05-01", "", ""\)\.\nHint: the header must name the columns/);
  });

  it('cells spreadsheets damage: a phone in scientific notation, a non-breaking space around an email, mailto:', async () => {
    const p = join(h.dir, 'cells.csv');
    writeFileSync(
      p,
      'First Name,Last Name,Email,Phone,Send Via\nSci,Ence,sci@example.com,4.15555E+09,sms\nNb,Sp,\u00a0nbsp@example.com\u00a0,,\nMail,To,mailto:mailto@example.com,,\n',
    );
    const r = await dryRun(p);
    expect(r.stdout).toContain('3 rows, 1 valid, 2 invalid');
    expect(r.stdout).toContain('phone: Invalid phone number (4.15555E+09 is how a spreadsheet shows a long number: format the column as Text and export again)');
    expect(r.stdout).toContain('line 4 (row 3, mailto:mailto@example.com): email: Invalid email address');
  });
});

describe('standard input', () => {
  it('100,000 rows through --csv - (the last one a duplicate of the first in other case)', async () => {
    const parts = ['First Name,Last Name,Email\r\n'];
    for (let i = 0; i < 100_000; i++) parts.push(`P${i},Big,p${i}.big@example.com\r\n`);
    parts.push('Dup,Big,P0.BIG@example.com');
    const r = await invite(['--csv', '-', '--created-by', INVITER, '--dry-run'], { stdin: parts.join('') });
    expect(r.code).toBe(3);
    expect(r.stdout).toContain('Standard input: 100,001 rows, 100,000 valid, 1 invalid.');
    expect(r.stdout).toContain('line 100002 (row 100001, P0.BIG@example.com): email: Duplicate email in the file (first on row 1)');
  }, 60_000);

  it('UTF-16 on standard input is decoded too', async () => {
    const s = 'First Name,Last Name,Email\nSi,Xteen,si.xteen@example.com\n';
    const r = await invite(['--csv', '-', '--created-by', INVITER, '--dry-run'], { stdin: Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(s, 'utf16le')]) as unknown as string });
    expect(r.stdout + r.stderr).toContain('1 row, 1 valid, 0 invalid');
  });
});

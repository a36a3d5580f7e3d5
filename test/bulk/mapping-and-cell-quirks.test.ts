/**
 * The small things of issue 25's run: a --map naming an absent header,
 * duplicates as one group, letters lost to a code page (and the advice for
 * a CSV and for a workbook), --header-row and
 * --name-order, cells of several values carried whole to the results.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { expectAllValid, INVITER, readResults, useBulkStub } from './harness.js';

const { h, invite, send } = useBulkStub('jobfit-bulk-small-');
const file = (name: string, text: string) => {
  const p = join(h.dir, name);
  writeFileSync(p, text);
  return p;
};
const dryRun = (p: string, more: string[] = []) => invite(['--csv', p, '--created-by', INVITER, '--dry-run', ...more]);

describe('small things', () => {
  it('a --map naming a header that is not there: exit 2, naming it and the header', async () => {
    const p = file('map.csv', 'First Name,Last Name,Email\nA,B,a.b.map@example.com\n');
    const r = await dryRun(p, ['--map', 'Cand Mail=email']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--map "Cand Mail=email": the file has no column "Cand Mail" (its header is: "First Name", "Last Name", "Email")');
  });

  it('90 duplicates of one email are one group, not "90 other reasons"', async () => {
    const lines = ['First Name,Last Name,Email', 'First,Person,same.dup@example.com'];
    for (let i = 0; i < 90; i++) lines.push(`Copy${i},Person,same.dup@example.com`);
    const r = await dryRun(file('dups.csv', `${lines.join('\n')}\n`));
    expect(r.code).toBe(3);
    expect(r.stdout).toContain('90 × email: Duplicate email in the file\n');
    expect(r.stdout).not.toContain('other reasons');
  });

  it('a letter lost to a code page ("?ukasz") is flagged, in the dry run and the real run', async () => {
    const p = file('codepage.csv', 'First Name,Last Name,Email\n?ukasz,Nowak,lukasz.nowak.cp@example.com\nAnna,Mu?oz,anna.munoz.cp@example.com\nBo,Lee,bo.lee.cp@example.com\n');
    const r = await dryRun(p);
    expectAllValid(r, 3);
    expect(r.stdout).toContain('Note: 2 rows have a name with "?" or "\uFFFD" where a letter should be ("?ukasz Nowak", "Anna Mu?oz")');
    const { r: real } = await send(p, 'codepage');
    expect(real.stderr).toContain('2 rows have a name with "?" or "\uFFFD" where a letter should be');
  });

  it('the advice for lost letters fits the input: save again as CSV UTF-8 for a CSV; for a workbook, the names came damaged into it', async () => {
    const csvAdvice = 'the file was saved in a code page without those letters; save it again as "CSV UTF-8".';
    const csv = file('codepage-advice.csv', 'First Name,Last Name,Email\n?ukasz,Nowak,lukasz.nowak.adv@example.com\nBo,Lee,bo.lee.adv@example.com\n');
    const dryCsv = await dryRun(csv);
    expectAllValid(dryCsv, 2);
    expect(dryCsv.stdout).toContain(`Note: 1 row has a name with "?" or "\uFFFD" where a letter should be ("?ukasz Nowak"): ${csvAdvice}\n`);
    const { r: realCsv } = await send(csv, 'codepage-advice-csv');
    expect(realCsv.stderr).toContain(`Warning: 1 row has a name with "?" or "\uFFFD" where a letter should be ("?ukasz Nowak"): ${csvAdvice}\n`);

    const book = new ExcelJS.Workbook();
    const sheet = book.addWorksheet('People');
    sheet.addRows([['First Name', 'Last Name', 'Email'], ['?ukasz', 'Nowak', 'lukasz.nowak.wb@example.com'], ['Anna', 'Mu\uFFFDoz', 'anna.munoz.wb@example.com'], ['Bo', 'Lee', 'bo.lee.wb@example.com']]);
    const xlsx = join(h.dir, 'codepage-advice.xlsx');
    await book.xlsx.writeFile(xlsx);
    const bookAdvice =
      'the workbook itself holds them so (a workbook stores every letter): they were damaged before it was written, by the program that exported it; fix the names there and export again.';
    const dryBook = await invite(['--file', xlsx, '--created-by', INVITER, '--dry-run']);
    expectAllValid(dryBook, 3);
    expect(dryBook.stdout).toContain(`Note: 2 rows have a name with "?" or "\uFFFD" where a letter should be ("?ukasz Nowak", "Anna Mu\uFFFDoz"): ${bookAdvice}\n`);
    const { r: realBook } = await send(xlsx, 'codepage-advice-xlsx');
    expect(realBook.stderr).toContain(`Warning: 2 rows have a name with "?" or "\uFFFD" where a letter should be ("?ukasz Nowak", "Anna Mu\uFFFDoz"): ${bookAdvice}\n`);
    for (const r of [dryBook, realBook]) expect(r.stdout + r.stderr).not.toContain('CSV UTF-8');
  });

  it('--header-row says the header line; --name-order last-first splits the other way', async () => {
    const p = file('order.csv', 'Report,,\nName,Email,Note\nNguyen Van An,an.nguyen.order@example.com,x\n');
    const r = await dryRun(p, ['--header-row', '2', '--name-order', 'last-first']);
    expectAllValid(r, 1);
    expect(r.stdout).toContain('"Nguyen Van An" → first "Van An", last "Nguyen"');
    const bad = await dryRun(p, ['--header-row', '9']);
    expect(bad.code).toBe(2);
  });

  it('a cell of several addresses: the first valid one is invited, the cell is carried whole', async () => {
    const p = file('several.csv', 'Full name,Email,Phone\nAda Byron,"bad@, ada.byron.sev@example.com; ada@home.example","+1 415 555 0100 / +1 212 555 0101"\n');
    const dry = await dryRun(p);
    expectAllValid(dry, 1);
    expect(dry.stdout).toContain('1 row had several email addresses in one cell');
    expect(dry.stdout).toContain('1 row had several phone numbers in one cell');
    const { out } = await send(p, 'several');
    const lines = readResults(out);
    expect(lines[1]).toContain('"bad@, ada.byron.sev@example.com; ada@home.example"');
    expect(lines[1]).toContain(',created,');
  });

  it('links that point at a stub that is not serving are named; a serving stub\'s are not', async () => {
    const p = file('links.csv', 'First Name,Last Name,Email\nLi,Nk,li.nk.links@example.com\n');
    // The embedded stub (nothing configured) stops when the command ends; its
    // links point at the address a `jobfit stub serve` keeps, where nothing serves.
    const embedded = await runCli(['invite', '--csv', p, '--created-by', INVITER, '--out', join(h.dir, 'links-embedded.results.csv')]);
    expect(embedded.code, embedded.stderr).toBe(0);
    expect(embedded.stderr).toMatch(/Warning: The assessment links in the results point at (the embedded stub \(http:\/\/127\.0\.0\.1:\d+\), which stops when this command ends|http:\/\/127\.0\.0\.1:\d+, where no stub is serving now)/);
    // The stub of this file serves its links.
    const { r } = await send(p, 'links-served');
    expect(r.stderr).not.toContain('assessment links in the results point at');
  });
});

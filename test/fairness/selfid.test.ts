/**
 * The self-identification file through the bulk invite's reader: a
 * semicolon CSV in UTF-16 with a BOM and title rows, an .xlsx workbook; the
 * join column chosen by the header (or --join); answers compared without
 * case; undisclosed answers; repeated rows; refusals that name no value.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ExcelJS from 'exceljs';
import { afterAll, describe, expect, it } from 'vitest';
import { readSelfId } from '../../src/fairness/selfid.js';

const dir = mkdtempSync(join(tmpdir(), 'jobfit-selfid-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const labels = (s: Awaited<ReturnType<typeof readSelfId>>, key: string) => [...s.answers.get(key)!].map((v, i) => (v < 0 ? null : s.categories[i].labels[v]));

describe('readSelfId', () => {
  it('UTF-16 with a BOM, semicolons, two title rows; emails without case; "female" and "Female" one category; blanks and "Prefer not to say" undisclosed', async () => {
    const f = join(dir, 'u16.csv');
    const text = 'HR export;;\r\nNovember;;\r\nE-mail;Gender;Race / Ethnicity\r\nA@X.org;Female;White\r\nb@x.org;female ;Prefer not to say\r\nc@x.org;;Asian\r\na@x.org;Female;White\r\n';
    writeFileSync(f, Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]));
    const notes: string[] = [];
    const s = await readSelfId(f, { by: ['gender', 'race'], note: (t) => notes.push(t) });
    expect(s.join).toBe('email');
    expect(s.columns).toEqual(['Gender', 'Race / Ethnicity']);
    expect(labels(s, 'a@x.org')).toEqual(['Female', 'White']);
    expect(labels(s, 'b@x.org')).toEqual(['Female', null]);
    expect(labels(s, 'c@x.org')).toEqual([null, 'Asian']);
    expect(s.categories[0].labels).toEqual(['Female']);
    expect({ rows: s.rows, duplicateRows: s.duplicateRows }).toEqual({ rows: 4, duplicateRows: 1 });
    expect(s.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(notes.join(' ')).toContain('line 3');
  });

  it('an .xlsx workbook; person_id chosen by --join over email; a row without a person_id counted', async () => {
    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet('Self-ID');
    ws.addRows([
      ['Email', 'Person ID', 'Sex'],
      ['a@x.org', 'P1', 'Male'],
      ['b@x.org', '', 'Female'],
      ['c@x.org', 'P3', 'Female'],
    ]);
    const f = join(dir, 'self.xlsx');
    await wb.xlsx.writeFile(f);
    const s = await readSelfId(f, { by: ['sex'], join: 'person_id' });
    expect(s.join).toBe('person_id');
    expect([...s.answers.keys()]).toEqual(['P1', 'P3']);
    expect(s.rowsWithoutKey).toBe(1);
  });

  it('refuses: no join column, a missing --by column, two answers for one person (rows named, values not)', async () => {
    const f = join(dir, 'bad.csv');
    writeFileSync(f, 'name,sex\nAda,Female\n');
    await expect(readSelfId(f, { by: ['sex'] })).rejects.toThrow(/no column to join on/);
    writeFileSync(f, 'email,sex\na@x.org,Female\n');
    await expect(readSelfId(f, { by: ['sex', 'race'] })).rejects.toThrow(/no column "race"/);
    writeFileSync(f, 'email,sex\nsecret@x.org,Female\nsecret@x.org,Male\n');
    const err = await readSelfId(f, { by: ['sex'] }).catch((e: Error) => e);
    expect(String(err)).toContain('Rows 1 and 2');
    expect(String(err)).not.toMatch(/secret|Female|Male/);
  });
});

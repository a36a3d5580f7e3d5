/**
 * What we write, opened by LibreOffice (headless `soffice`, another program
 * nobody here wrote), read back with openpyxl:
 * - `-o csv`: a phone shows as its text, with its `+` and no quote, and is not
 *   a number; text that starts like a formula is text, never run;
 * - `-o xlsx`: LibreOffice sees the header filter (it keeps it when it saves
 *   the workbook again, which it does only when the sheet has its
 *   `_xlnm._FilterDatabase` name; exceljs issue #2778).
 * Skipped, saying why, where soffice or openpyxl is missing
 * (`apt-get install libreoffice-calc python3-openpyxl`).
 */
import { execFile, execFileSync } from 'node:child_process';
import { createWriteStream, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { skipBecause } from '../helpers/skip.js';
import { toCsv } from '../../src/format/csv.js';
import { openXlsxList } from '../../src/format/xlsx.js';
import { PYTHON, py } from '../helpers/openpyxl.js';

function findSoffice(): string | undefined {
  for (const bin of ['soffice', 'libreoffice']) {
    try {
      execFileSync(bin, ['--version'], { stdio: 'ignore', timeout: 60_000 });
      return bin;
    } catch {
      // next
    }
  }
  return undefined;
}
const SOFFICE = findSoffice();
const missing = [!SOFFICE && 'LibreOffice (soffice)', !PYTHON && 'python3-openpyxl'].filter(Boolean).join(' and ');
if (missing) console.log(`test/format/libreoffice.test.ts skipped: ${missing} not installed (apt-get install -y libreoffice-calc python3-openpyxl).`);

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'jobfit-libreoffice-'));
});
afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** soffice --convert-to xlsx, with its own profile (so it runs beside a desktop LibreOffice); the converted file's path. */
async function convert(file: string, infilter?: string): Promise<string> {
  const out = join(dir, `lo-${Date.now()}`);
  const args = ['--headless', '--norestore', `-env:UserInstallation=file://${join(dir, 'profile')}`];
  if (infilter) args.push(`--infilter=${infilter}`);
  await promisify(execFile)(SOFFICE!, [...args, '--convert-to', 'xlsx', '--outdir', out, file], { timeout: 120_000 });
  return join(out, file.split('/').pop()!.replace(/\.[^.]+$/, '.xlsx'));
}

describe.skipIf(skipBecause(missing && `the LibreOffice test needs ${missing}`))('LibreOffice opens what we write', () => {
  it('CSV: a phone is text with its + and no quote; formula-like text is text, never a formula', async () => {
    const items = [
      { name: 'US', phone: '+14155550100' },
      { name: 'UK', phone: '+447400123456' },
      { name: 'JP', phone: '+81312345678' },
      { name: '=HYPERLINK("http://evil.example","x")', phone: '+1+1' },
      { name: '@SUM(A1)', phone: '-2+3' },
      { name: 'plus', phone: '+1234' },
    ];
    const csv = join(dir, 'people.csv');
    writeFileSync(csv, toCsv(items));
    // LibreOffice's own CSV defaults (comma, ", UTF-8, first line 1) with "evaluate formulas" on: the worst case.
    const xlsx = await convert(csv, 'CSV:44,34,76,1,,0,false,true,false,false,false,-1,true');
    const cells = JSON.parse(
      py(
        `
ws = openpyxl.load_workbook(sys.argv[1]).active
print(json.dumps([[{"v": c.value, "t": c.data_type} for c in r] for r in ws.iter_rows(min_row=2)]))
`,
        [xlsx],
      ),
    ) as Array<Array<{ v: unknown; t: string }>>;
    const phones = cells.map((r) => r[1]);
    expect(phones.slice(0, 3)).toEqual([
      { v: '+1 415 555 0100', t: 's' },
      { v: '+44 7400 123456', t: 's' },
      { v: '+81 3 1234 5678', t: 's' },
    ]);
    // Nothing LibreOffice shows starts with a quote but the neutralised non-phones, and nothing is a formula.
    expect(cells.flat().filter((c) => c.t === 'f')).toEqual([]);
    expect(cells.slice(3).map((r) => r.map((c) => c.v))).toEqual([
      [`'=HYPERLINK("http://evil.example","x")`, "'+1+1"],
      ["'@SUM(A1)", "'-2+3"],
      ['plus', "'+1234"],
    ]);
  }, 180_000);

  it('xlsx: the header filter survives LibreOffice, which keeps only a filter it sees', async () => {
    const xlsx = join(dir, 'list.xlsx');
    const out = createWriteStream(xlsx);
    const list = await openXlsxList(out, { sheet: "Ana's invitations" });
    for (let i = 0; i < 12; i++) list.write({ id: i + 1, email: `p${i}@example.com`, phone: '+14155550100', created_at: '2026-01-02T03:04:05Z' });
    await list.end();
    await new Promise<void>((resolve) => out.end(resolve));
    const again = await convert(xlsx);
    const read = JSON.parse(
      py(
        `
import zipfile, re
z = zipfile.ZipFile(sys.argv[1])
book = z.read("xl/workbook.xml").decode()
names = re.findall(r'<definedName[^>]*name="_xlnm._FilterDatabase"[^>]*>([^<]*)</definedName>', book)
ws = openpyxl.load_workbook(sys.argv[1]).active
print(json.dumps({"names": names, "filter": ws.auto_filter.ref, "font": ws["A1"].font.name, "bold": ws["A1"].font.b}))
`,
        [again],
      ),
    ) as { names: string[]; filter: string | null; font: string; bold: boolean };
    expect(read.filter).toBe('A1:D13');
    expect(read.names).toEqual(['&apos;Ana&apos;&apos;s invitations&apos;!$A$1:$D$13']);
    expect([read.font, read.bold]).toEqual(['Calibri', true]);
  }, 180_000);
});

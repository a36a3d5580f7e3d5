/**
 * `-o xlsx` read back by another program (openpyxl): the same columns as
 * `-o csv`, numbers as numbers, timestamps as dates, ids as integers, links,
 * text that looks like a formula kept as text, a bold frozen header (its font
 * named) and a filter that is also the sheet's `_xlnm._FilterDatabase` name; refused to a terminal, allowed to a pipe; 10,000 rows.
 */
import { execFile } from 'node:child_process';
import { createWriteStream, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { beforeAll, describe, expect, it } from 'vitest';
import { skipBecause } from '../helpers/skip.js';
import { REPORT_CSV_COLUMNS } from '../../src/export/group-report.js';
import { JOB_FIT_CSV_COLUMNS } from '../../src/export/job-fit-rows.js';
import { openXlsxList } from '../../src/format/xlsx.js';
import { INVITER, useBulkStub } from '../bulk/harness.js';
import { ROOT } from '../e2e/built.js';
import { runCli } from '../helpers/cli.js';
import { PYTHON, py, type ReadSheet, readWorkbook } from '../helpers/openpyxl.js';

const { h } = useBulkStub('jobfit-export-xlsx-');
const cli = (args: string[], tty = false) => runCli(args, { env: h.env, stdoutTTY: tty });
let sp = '';

/** What every sheet we write has: a bold frozen header, a filter over every row, widths, no formula. */
function expectRealSheet(s: ReadSheet, rows: number, cols: number) {
  expect(s.freeze).toBe('A2');
  expect(s.rows).toHaveLength(rows + 1);
  expect(s.rows[0]).toHaveLength(cols);
  expect(s.filter).toMatch(new RegExp(`^A1:[A-Z]+${rows + 1}$`));
  expect(s.rows[0].every((c) => c.bold && c.t === 's' && c.font === 'Calibri')).toBe(true);
  // The filter is also the sheet's _xlnm._FilterDatabase name: LibreOffice shows it only then (exceljs #2778).
  expect(s.filterName).toBe(`'${s.title.replaceAll("'", "''")}'!$A$1:$${s.filter!.split(':')[1].replace(/(\d+)$/, '$$$1')}`);
  expect(Object.values(s.widths).some((w) => w !== null && w >= 8)).toBe(true);
  expect(s.rows.flat().filter((c) => c.t === 'f')).toEqual([]);
}

describe.skipIf(skipBecause(!PYTHON && 'the workbook tests need python3 with openpyxl'))('-o xlsx', () => {
  beforeAll(async () => {
    sp = JSON.parse((await cli(['score-profiles', '-o', 'json'])).stdout).data[0].short_name;
    // Text a spreadsheet would run as a formula, from the service.
    const r = await cli(['invite', '--first-name', '=HYPERLINK("http://evil.example","x")', '--last-name', '+1-2', '--email', 'evil.xlsx@example.com', '--custom-id', '@SUM(A1)', '--created-by', INVITER]);
    expect(r.code, r.stderr).toBe(0);
  });

  it('scorecard: the columns of -o csv, ids as integers, scores as numbers', async () => {
    const xlsx = join(h.dir, 'scorecards.xlsx');
    const csv = join(h.dir, 'scorecards.csv');
    expect((await cli(['scorecard', '--all', '--sp', sp, '-o', 'xlsx', '--out', xlsx])).code).toBe(0);
    expect((await cli(['scorecard', '--all', '--sp', sp, '-o', 'csv', '--out', csv])).code).toBe(0);
    // CSV written with --out starts with a byte order mark, for Excel (docs/exports.md); csv-parse drops it.
    const rows = parse(readFileSync(csv, 'utf8'), { bom: true }) as string[][];
    const [s] = readWorkbook(xlsx);
    expect(s.title).toBe('Scorecards');
    expectRealSheet(s, rows.length - 1, rows[0].length);
    expect(s.rows[0].map((c) => c.v)).toEqual(rows[0]);
    const col = (k: string) => rows[0].indexOf(k);
    for (const [i, row] of s.rows.slice(1).entries()) {
      expect([row[col('test_taker_id')].t, row[col('test_taker_id')].fmt]).toEqual(['n', '0']);
      expect(String(row[col('test_taker_id')].v)).toBe(rows[i + 1][col('test_taker_id')]);
      const stars = row[col('five_star_score')];
      if (stars.v !== null) expect([stars.t, String(stars.v)]).toEqual(['n', rows[i + 1][col('five_star_score')]]);
      expect(row[col('email')].t).toBe('s');
    }
  });

  it('invitations --all: timestamps are dates, URLs links, formula-like text stays text exactly', async () => {
    const out = join(h.dir, 'invitations.xlsx');
    const r = await cli(['invitations', 'list', '--all', '-o', 'xlsx', '--out', out]);
    expect(r.code, r.stderr).toBe(0);
    const [s] = readWorkbook(out);
    const head = s.rows[0].map((c) => c.v as string);
    const total = JSON.parse((await cli(['invitations', 'list', '-o', 'json'])).stdout).total_count as number;
    expectRealSheet(s, total, head.length);
    const col = (k: string) => head.indexOf(k);
    const evil = s.rows.find((row) => row[col('email')].v === 'evil.xlsx@example.com')!;
    expect([evil[col('first_name')].v, evil[col('first_name')].t]).toEqual(['=HYPERLINK("http://evil.example","x")', 's']);
    expect([evil[col('last_name')].v, evil[col('last_name')].t]).toEqual(['+1-2', 's']);
    expect([evil[col('custom_id')].v, evil[col('custom_id')].t]).toEqual(['@SUM(A1)', 's']);
    expect([evil[col('id')].t, evil[col('id')].fmt]).toEqual(['n', '0']);
    expect([evil[col('created_at')].t, evil[col('created_at')].fmt]).toEqual(['d', 'yyyy-mm-dd hh:mm:ss']);
    expect(evil[col('assessment_url')].link).toBe(evil[col('assessment_url')].v);
    // The date is the service's instant (UTC), to the millisecond.
    const api = JSON.parse((await cli(['invitations', 'list', '--email', 'evil.xlsx@example.com', '-o', 'json'])).stdout).data[0];
    expect(new Date(`${evil[col('created_at')].v}Z`).toISOString()).toBe(new Date(api.created_at).toISOString());
  });

  it('report and job-fit: one sheet each, the columns of -o csv', async () => {
    const report = join(h.dir, 'report.xlsx');
    expect((await cli(['report', '--sp', sp, '-o', 'xlsx', '--out', report])).code).toBe(0);
    const [g] = readWorkbook(report);
    expect(g.title).toBe('Groups');
    expect(g.rows[0].map((c) => c.v)).toEqual([...REPORT_CSV_COLUMNS]);
    expectRealSheet(g, g.rows.length - 1, REPORT_CSV_COLUMNS.length);
    expect(g.rows[1][REPORT_CSV_COLUMNS.indexOf('invited')].t).toBe('n');
    const jobFit = join(h.dir, 'job-fit.xlsx');
    expect((await cli(['job-fit', '--all', '-o', 'xlsx', '--out', jobFit])).code).toBe(0);
    const [j] = readWorkbook(jobFit, 50);
    expect(j.rows[0].map((c) => c.v)).toEqual([...JOB_FIT_CSV_COLUMNS]);
    expect(j.rows[1][JOB_FIT_CSV_COLUMNS.indexOf('job_fit_percentage')].t).toBe('n');
  });

  it('refused to a terminal (exit 2, nothing written); to a pipe it is a workbook', async () => {
    const r = await cli(['teams', '-o', 'xlsx'], true);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('-o xlsx writes a workbook (binary), not text for a terminal.');
    expect(r.stdout).toBe('');
    // With --out the terminal is not written to.
    const out = join(h.dir, 'tty.xlsx');
    expect((await cli(['scorecard', '--all', '--sp', sp, '-o', 'xlsx', '--out', out], true)).code).toBe(0);
    expect(readWorkbook(out)[0].rows.length).toBeGreaterThan(1);
    // The built binary into a pipe.
    // (Not spawnSync: the stub answers from this process.)
    const p = await new Promise<{ status: number; stdout: Buffer; stderr: Buffer }>((resolve) => {
      execFile(process.execPath, [join(ROOT, 'bin/jobfit.js'), 'teams', '-o', 'xlsx'], { encoding: 'buffer', env: { PATH: process.env.PATH, JOBFIT_CONFIG_DIR: join(h.dir, 'cfg'), ...h.env } }, (err, stdout, stderr) =>
        resolve({ status: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
      );
    });
    expect(p.status, p.stderr.toString()).toBe(0);
    expect(p.stderr.toString()).not.toMatch(/Warning|DEP0005/);
    const piped = join(h.dir, 'piped.xlsx');
    writeFileSync(piped, p.stdout);
    const [t] = readWorkbook(piped);
    expect(t.title).toBe('Teams');
    expect(t.rows[0].map((c) => c.v)).toContain('display_name');
  });

  it('10,000 rows stream into one sheet, read back whole', async () => {
    const out = join(h.dir, 'ten-thousand.xlsx');
    const file = createWriteStream(out);
    const list = await openXlsxList(file, { sheet: 'People' });
    for (let i = 0; i < 10_000; i++) list.write({ id: i + 1, email: `p${i}@example.com`, phone: `+1415555${String(i).padStart(4, '0')}`, score: i / 100, at: '2026-01-02T03:04:05Z' });
    await list.end();
    await new Promise<void>((resolve) => file.end(resolve));
    const got = JSON.parse(
      py(
        `
ws = openpyxl.load_workbook(sys.argv[1], read_only=True).active
rows = list(ws.iter_rows(values_only=True))
last = [v.isoformat() if isinstance(v, datetime.datetime) else v for v in rows[-1]]
print(json.dumps({"n": len(rows), "head": list(rows[0]), "last": last}))
`,
        [out],
      ),
    );
    expect(got.n).toBe(10_001);
    expect(got.head).toEqual(['id', 'email', 'phone', 'score', 'at']);
    expect(got.last).toEqual([10_000, 'p9999@example.com', '+14155559999', 99.99, '2026-01-02T03:04:05']);
  }, 60_000);
});

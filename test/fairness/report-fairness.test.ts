/**
 * `report --fairness` end to end in-process, against a stub seeded as
 * `jobfit stub seed --test-takers 2000` leaves it, with the committed
 * fixtures/fairness/self-id.csv (test/fairness/make-self-id.ts):
 * - the counts per group equal a count made here independently (the file
 *   parsed with csv-parse, scores from `scorecard --all`, completion from the
 *   stub's own tables), and the ratios equal it to 4 decimals;
 * - a recording server between the CLI and the stub: no request of the run
 *   carries any value of the file;
 * - privacy: hidden groups, --exclude-under, the file named by its hash only;
 * - CSV and xlsx; usage errors in one sentence, exit 2, naming rows, never values.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { type FaultServer, startFaultServer } from '../helpers/fault-server.js';
import { type StartedStub, startStub } from '../helpers/stub.js';

const FIXTURE = fileURLToPath(new URL('../../fixtures/fairness/self-id.csv', import.meta.url));
const ARGS = ['report', '--sp', 'sales-rep', '--fairness', FIXTURE, '--by', 'sex,race'];

let dir: string;
let stub: StartedStub;
const env = (url = stub.url) => ({ JOBFIT_BASE_URL: url, JOBFIT_API_KEY: stub.keys[0].live_key });

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'jobfit-fair-'));
  const seeded = await runCli(['stub', 'seed', '--test-takers', '2000', '--data', join(dir, 'stub')]);
  expect(seeded.code, seeded.stderr).toBe(0);
  stub = await startStub({ dataDir: join(dir, 'stub') });
}, 60_000);

afterAll(async () => {
  await stub?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

interface Group {
  label: string;
  status: string;
  size: number | string;
  invited: number | null;
  completed: number | null;
  scored: number | null;
  selected: number | null;
  impact_ratio: number | null;
  below_four_fifths: boolean | null;
}
interface Report {
  self_identification: { sha256: string; rows: number; rows_matching_nobody: number; duplicate_rows: number };
  people: { invited: number; with_a_row: number; without_a_row: number; scored: number; completed: number };
  outcome: { median: number };
  sections: Array<{ by: string[]; groups: Group[]; left_out: string[] }>;
}

/** The same numbers, counted here from the sources, not from src/fairness/. */
async function independent() {
  const rows = parse(readFileSync(FIXTURE), { from_line: 3, columns: true, skip_empty_lines: true }) as Array<Record<string, string>>;
  const answers = new Map(rows.map((r) => [r.Email.toLowerCase(), r]));
  const sc = await runCli(['scorecard', '--all', '--sp', 'sales-rep', '-o', 'json'], { env: env() });
  const inv = await runCli(['invitations', 'list', '--all', '-o', 'json'], { env: env() });
  const cards = JSON.parse(sc.stdout) as Array<{ email: string; job_fit_percentage: number | null }>;
  const listed = JSON.parse(inv.stdout);
  const invitations = (Array.isArray(listed) ? listed : listed.data) as Array<{ email: string }>;
  const fit = new Map<string, number>();
  for (const c of cards) if (typeof c.job_fit_percentage === 'number') fit.set(c.email.toLowerCase(), Math.max(fit.get(c.email.toLowerCase()) ?? -1, c.job_fit_percentage));
  const done = new Set(
    stub.server!.store
      .all<{ email_lc: string }>(
        `SELECT t.email_lc FROM test_takers t WHERE t.account_id = 1 AND EXISTS (SELECT 1 FROM assigned_assessments a WHERE a.test_taker_id = t.id)
           AND NOT EXISTS (SELECT 1 FROM assigned_assessments a WHERE a.test_taker_id = t.id AND a.completed_at IS NULL)`,
      )
      .map((r) => r.email_lc),
  );
  const people = [...new Set(invitations.map((i) => i.email.toLowerCase()))];
  const scores = people.map((p) => fit.get(p)).filter((v): v is number => v !== undefined).sort((a, b) => a - b);
  const m = scores.length >> 1;
  const median = scores.length % 2 ? scores[m] : (scores[m - 1] + scores[m]) / 2;
  const undisclosed = (v: string) => v === '' || /decline/i.test(v);
  const bySex = new Map<string, { people: number; completed: number; scored: number; selected: number }>();
  for (const p of people) {
    const a = answers.get(p);
    if (!a || undisclosed(a.Sex)) continue;
    const g = bySex.get(a.Sex) ?? { people: 0, completed: 0, scored: 0, selected: 0 };
    g.people++;
    if (done.has(p)) g.completed++;
    if (fit.has(p)) {
      g.scored++;
      if (fit.get(p)! > median) g.selected++;
    }
    bySex.set(a.Sex, g);
  }
  return { people: people.length, withRow: people.filter((p) => answers.has(p)).length, median, bySex };
}

describe('report --fairness on the seeded stub with fixtures/fairness/self-id.csv', () => {
  let json: Report;

  it('JSON: counts equal an independent count, ratios to 4 decimals; the file is named by its hash', async () => {
    const r = await runCli([...ARGS, '-o', 'json'], { env: env() });
    expect(r.code, r.stderr).toBe(0);
    json = JSON.parse(r.stdout) as Report;
    const want = await independent();
    expect(json.people.invited).toBe(want.people);
    expect(json.people.with_a_row).toBe(want.withRow);
    expect(json.outcome.median).toBe(want.median);
    expect(json.self_identification).toMatchObject({ rows_matching_nobody: 12, duplicate_rows: 2 });
    const sex = json.sections[0];
    const rates = [...want.bySex.values()].map((g) => g.selected / g.scored);
    const top = Math.max(...rates);
    for (const [name, g] of want.bySex) {
      const got = sex.groups.find((x) => x.label === name)!;
      expect(got, name).toMatchObject({ invited: g.people, completed: g.completed, scored: g.scored, selected: g.selected });
      expect(got.impact_ratio!, name).toBeCloseTo(g.selected / g.scored / top, 4);
    }
    expect(r.stdout + r.stderr).not.toContain(FIXTURE);
    // The skipped title lines are said, not quoted: no line of the file is repeated.
    expect(r.stderr).toContain('the 2 lines above it skipped.');
    expect(r.stderr).not.toContain('(synthetic)');
    expect(json.self_identification.sha256).toMatch(/^[0-9a-f]{64}$/);
    // The planted disparity is found; the three-person group is hidden.
    const race = json.sections[1].groups;
    expect(race.find((g) => g.label === 'Hispanic or Latino')).toMatchObject({ below_four_fifths: true });
    expect(race.find((g) => g.label.startsWith('Native Hawaiian'))).toMatchObject({ size: 'fewer than 5', invited: null, scored: null, impact_ratio: null });
    expect(json.sections.map((s) => s.by)).toEqual([['Sex'], ['Race/Ethnicity'], ['Sex', 'Race/Ethnicity']]);
  }, 120_000);

  it('without --fairness, report is the group report it was (no companion flag refused by default)', async () => {
    const r = await runCli(['report', '--sp', 'sales-rep', '-o', 'json'], { env: env() });
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ object: 'group_report' });
  }, 60_000);

  it('table: one table per section, hidden groups as "fewer than 5", the rule and the caution words', async () => {
    const r = await runCli([...ARGS, '-o', 'table', '--exclude-under', '2%'], { env: env(), columns: 200 });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('By Sex × Race/Ethnicity');
    expect(r.stdout).toMatch(/Native Hawaiian or Other Pacific Islander\s+fewer than 5/);
    expect(r.stdout).toContain('American Indian or Alaska Native: under 2% of the people in this section');
    expect(r.stdout).toContain('BELOW 0.8');
    expect(r.stdout).toContain('29 CFR 1607.4 D');
  }, 60_000);

  it('--min-group 30 hides more groups, keeps them out of the ratios; CSV has a row per group with no number for them', async () => {
    const r = await runCli([...ARGS, '-o', 'csv', '--min-group', '30'], { env: env() });
    expect(r.code, r.stderr).toBe(0);
    const rows = parse(r.stdout, { columns: true }) as Array<Record<string, string>>;
    const ai = rows.find((x) => x.section === 'Race/Ethnicity' && x.group === 'American Indian or Alaska Native')!;
    expect(ai).toMatchObject({ status: 'fewer_than_min_group', size: 'fewer than 30', invited: '', scored: '', selected: '', impact_ratio: '' });
  }, 60_000);

  it('xlsx: the same rows in a workbook', async () => {
    const out = join(dir, 'fair.xlsx');
    const r = await runCli([...ARGS, '-o', 'xlsx', '--out', out], { env: env() });
    expect(r.code, r.stderr).toBe(0);
    const ExcelJS = (await import('exceljs')).default;
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.readFile(out);
    const ws = wb.worksheets[0];
    expect(ws.getRow(1).values).toContain('impact_ratio');
    expect(ws.rowCount).toBeGreaterThan(20);
  }, 60_000);
});

describe('the demographics file never leaves the machine', () => {
  let proxy: FaultServer;
  const seen: string[] = [];

  beforeAll(async () => {
    proxy = await startFaultServer({ upstream: new URL(stub.url).origin });
    proxy.faults.push((req) => {
      seen.push(`${req.method} ${req.url}\n${JSON.stringify(req.headers)}\n${req.body}`);
      return false;
    });
  });

  afterAll(() => proxy.close());

  it('a recording server sees every request of the run: none carries a value of the file', async () => {
    const url = `${proxy.url}${new URL(stub.url).pathname}`;
    const r = await runCli([...ARGS, '-o', 'json'], { env: env(url) });
    expect(r.code, r.stderr).toBe(0);
    expect(seen.length).toBeGreaterThan(2000);
    const cells = parse(readFileSync(FIXTURE), { relax_column_count: true }) as string[][];
    // Every answer and every email of the file (the title and header lines above the data are not a person's).
    const values = new Set(cells.slice(3).flat().map((v) => v.trim().toLowerCase()).filter((v) => v.length >= 4));
    expect(values.size).toBeGreaterThan(2000);
    const requests = seen.join('\n').toLowerCase();
    const carried = [...values].filter((v) => requests.includes(v) || requests.includes(encodeURIComponent(v)));
    expect(carried).toEqual([]);
    // Completion is asked only for people with a row: fewer test takers than scorecards.
    const takers = seen.filter((x) => /^GET \S*\/test-takers\/\d+(\?\S*)?\n/.test(x)).length;
    const cards = seen.filter((x) => /^GET \S*\/test-takers\/\d+\/scorecard/.test(x)).length;
    expect(takers).toBeGreaterThan(1900);
    expect(takers).toBeLessThan(cards);
  }, 120_000);
});

describe('refusals before anything connects (exit 2, one sentence, no value of the file)', () => {
  const run = (extra: string[], file = FIXTURE) => runCli(['report', '--sp', 'sales-rep', '--fairness', file, ...extra], { env: { JOBFIT_BASE_URL: 'http://127.0.0.1:9/v2', JOBFIT_API_KEY: 'sk_live_x' } });

  it('no --by, a --by column the file lacks, a bad --pass, --min-group 1, --by without --fairness', async () => {
    expect((await run([])).stderr).toContain('--by');
    expect((await run(['--by', 'sex,religion'])).stderr).toContain('no column "religion"');
    expect((await run(['--by', 'sex', '--pass', 'score>3'])).stderr).toContain('stars>=N');
    expect((await run(['--by', 'sex', '--min-group', '1'])).code).toBe(2);
    const stray = await runCli(['report', '--sp', 'sales-rep', '--by', 'sex']);
    expect(stray.code).toBe(2);
    expect(stray.stderr).toContain('--by goes with --fairness');
    for (const r of [await run([]), await run(['--by', 'sex,religion'])]) expect(r.code).toBe(2);
  });

  it('one email given two answers: refused naming the two rows, not the email or the answers', async () => {
    const f = join(dir, 'conflict.csv');
    writeFileSync(f, 'email;sex\r\nsecret.person@example.org;Female\r\nother@example.org;Male\r\nSecret.Person@example.org;Male\r\n');
    const r = await run(['--by', 'sex'], f);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('Rows 1 and 3');
    expect(r.stderr).not.toMatch(/secret\.person|Female|Male/i);
  });
});

/**
 * `report -o html` and `job-fit -o html` as a hiring manager sees them: a
 * stub seeded with 10,000 test takers over 3 teams, the pages written with
 * --out, then opened in headless Chromium with scripts off (what is on the
 * page, and that nothing is fetched from anywhere) and printed to PDF on A4
 * and on Letter, the pages looked at as PNG (pdftoppm).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type BrowserContext, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type StartedStub, startStub } from '../helpers/stub.js';
import { runCli } from '../helpers/cli.js';

const CHROMIUM = '/usr/bin/chromium';
const hasChromium = existsSync(CHROMIUM);
const hasPdftoppm = (() => {
  try {
    execFileSync('pdftoppm', ['-v'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();
const N = 10_000;
const MB2 = 2 * 1024 * 1024;

let dir: string;
let stub: StartedStub;
let browser: BrowserContext | undefined;
const env = () => ({ JOBFIT_BASE_URL: stub.url, JOBFIT_API_KEY: stub.keys[0].live_key });

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'jobfit-html-'));
  const seeded = await runCli(['stub', 'seed', '--test-takers', String(N), '--teams', '3', '--data', join(dir, 'stub')]);
  expect(seeded.code, seeded.stderr).toBe(0);
  stub = await startStub({ dataDir: join(dir, 'stub') });
  if (hasChromium) {
    browser = await chromium.launchPersistentContext(join(dir, 'profile'), {
      executablePath: CHROMIUM,
      headless: true,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
      // Readable with scripts off: the pages have none, and must not need any.
      javaScriptEnabled: false,
      viewport: { width: 1000, height: 900 },
    });
  }
}, 90_000);

afterAll(async () => {
  await browser?.close();
  await stub?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** Opens a page file; returns it and every URL it asked for besides itself. */
async function open(file: string) {
  const page = await browser!.newPage();
  const requested: string[] = [];
  page.on('request', (r) => {
    if (r.url() !== `file://${file}`) requested.push(r.url());
  });
  await page.goto(`file://${file}`);
  return { page, requested };
}

/** Prints to PDF on this paper, renders the pages as PNG; returns the PNG files. */
async function printed(file: string, format: 'A4' | 'Letter'): Promise<string[]> {
  const { page } = await open(file);
  const pdf = join(dir, `${format}-${Date.now()}.pdf`);
  await page.pdf({ path: pdf, format, printBackground: true });
  await page.close();
  const prefix = `${pdf}.page`;
  execFileSync('pdftoppm', ['-png', '-r', '40', pdf, prefix]);
  return readdirSync(dir)
    .filter((f) => f.startsWith(`${format}-`) && f.endsWith('.png') && join(dir, f).startsWith(prefix))
    .map((f) => join(dir, f));
}

describe('report -o html at 10,000 test takers over 3 teams', () => {
  const file = () => join(dir, 'r.html');
  let teams: Array<{ key: number; name: string; completed: number }> = [];

  it('exits 0 and writes one owner-only file of at most 2 MB that references nothing outside', async () => {
    const json = await runCli(['report', '--sp', 'sales-rep', '-o', 'json'], { env: env() });
    expect(json.code, json.stderr.slice(-1500)).toBe(0);
    teams = (JSON.parse(json.stdout) as { groups: typeof teams }).groups;
    // The 10,000 over 3 teams, and the seed's own fixtures (which may use a fourth).
    expect(teams.filter((t) => t.completed > 1000)).toHaveLength(3);

    const res = await runCli(['report', '--sp', 'sales-rep', '-o', 'html', '--out', file()], { env: env() });
    expect(res.code, res.stderr.slice(-1500)).toBe(0);
    expect(res.stdout).toBe('');
    const st = statSync(file());
    expect(st.mode & 0o777).toBe(0o600);
    expect(st.size).toBeLessThanOrEqual(MB2);
    const html = readFileSync(file(), 'utf8');
    expect(html).not.toMatch(/<script|<link|<img|<iframe|@import|url\(/i);
    // The only links are the scorecards, each to the service (stub) that sent it.
    for (const m of html.matchAll(/href="([^"]+)"/g)) expect(m[1].startsWith(stub.server!.origin)).toBe(true);
    // Leaves no temporary file beside it.
    expect(readdirSync(dir).filter((f) => (f.includes('.partial') || f.endsWith('.jobfit-tmp')))).toEqual([]);
  }, 120_000);

  it('--top without -o html is a usage error; --top all ranks everyone and stays under 2 MB', async () => {
    const bad = await runCli(['report', '--sp', 'sales-rep', '--top', '5', '-o', 'json'], { env: env() });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--top ranks the candidates of an HTML report; add -o html.');
    const all = await runCli(['report', '--sp', 'sales-rep', '-o', 'html', '--top', 'all', '--out', join(dir, 'all.html')], { env: env() });
    expect(all.code, all.stderr.slice(-1500)).toBe(0);
    const html = readFileSync(join(dir, 'all.html'), 'utf8');
    const completed = teams.reduce((a, t) => a + t.completed, 0);
    expect(html.match(/<tr><td class="n">\d+<\/td><td><a /g)!.length).toBeGreaterThanOrEqual(completed);
    expect(statSync(join(dir, 'all.html')).size).toBeLessThanOrEqual(MB2);
  }, 120_000);

  it.skipIf(!hasChromium)('in Chromium (scripts off): an SVG chart per group, the ranked table, every team name, nothing fetched', async () => {
    const { page, requested } = await open(file());
    const sections = page.locator('section.group');
    await expect.poll(() => sections.count()).toBe(teams.length);
    for (let i = 0; i < teams.length; i++) {
      const s = sections.nth(i);
      const charts = s.locator('svg.chart');
      expect(await charts.count()).toBeGreaterThanOrEqual(3);
      const box = await charts.first().boundingBox();
      expect(box!.width).toBeGreaterThan(100);
      const rows = s.locator('table.ranked tbody tr');
      expect(await rows.count()).toBe(Math.min(25, teams[i].completed));
      const fits = (await s.locator('table.ranked tbody tr td:nth-child(4)').allInnerTexts()).map((t) => Number.parseFloat(t));
      expect(fits).toEqual([...fits].sort((a, b) => b - a));
      await expect.poll(() => s.locator('h2').innerText()).toContain(teams[i].name);
    }
    const text = await page.locator('body').innerText();
    for (const t of teams) expect(text).toContain(t.name);
    expect(text).toContain('score profile sales-rep');
    expect(text).toMatch(/median \d/);
    expect(requested).toEqual([]);
    await page.screenshot({ path: join(dir, 'report.png') });
    await page.close();
  }, 60_000);

  it.skipIf(!hasChromium || !hasPdftoppm)('prints on A4 and on Letter: each group on its own pages, every page drawn', async () => {
    for (const format of ['A4', 'Letter'] as const) {
      const pngs = await printed(file(), format);
      // The overview, then each group from a new page.
      expect(pngs.length).toBeGreaterThanOrEqual(teams.length + 1);
      for (const p of pngs) expect(statSync(p).size).toBeGreaterThan(2000);
    }
  }, 60_000);
});

describe('job-fit -o html', () => {
  it.skipIf(!hasChromium)('a section per candidate with its charts, in Chromium', async () => {
    const ids = stub.server!.store
      .all<{ id: number }>(
        `SELECT t.id FROM test_takers t WHERE t.account_id = 1
         AND EXISTS (SELECT 1 FROM assigned_assessments a WHERE a.test_taker_id = t.id AND a.test_id = 6 AND a.completed_at IS NOT NULL)
         AND EXISTS (SELECT 1 FROM assigned_assessments a WHERE a.test_taker_id = t.id AND a.test_id = 8 AND a.completed_at IS NOT NULL)
         ORDER BY t.id LIMIT 3`,
      )
      .map((r) => String(r.id));
    expect(ids).toHaveLength(3);
    const one = join(dir, 'j.html');
    const res = await runCli(['job-fit', ids[0], '-o', 'html', '--out', one], { env: env() });
    expect(res.code, res.stderr).toBe(0);
    expect(statSync(one).mode & 0o777).toBe(0o600);
    const many = join(dir, 'j3.html');
    expect((await runCli(['job-fit', ...ids, '-o', 'html', '--out', many], { env: env() })).code).toBe(0);
    for (const [f, n] of [[one, 1], [many, 3]] as const) {
      const { page, requested } = await open(f);
      const people = page.locator('section.person');
      expect(await people.count()).toBe(n);
      for (let i = 0; i < n; i++) {
        const s = people.nth(i);
        expect(await s.locator('svg.chart').count()).toBe(1);
        expect((await s.locator('svg.chart').boundingBox())!.height).toBeGreaterThan(50);
        expect(await s.locator('table.occupations tbody tr').count()).toBe(15);
        expect(await s.locator('table.occupations svg.fitbar').count()).toBe(15);
        expect(await s.locator('figure', { hasText: 'Top three career interests' }).locator('ol > li').count()).toBe(3);
        expect(await s.locator('table.traits tbody th').count()).toBe(5);
        await expect.poll(() => s.locator('.riasec').innerText()).toMatch(/^[RIASEC]{2,3}$/);
      }
      expect(requested).toEqual([]);
      await page.close();
    }
    if (hasPdftoppm) {
      const pngs = await printed(many, 'Letter');
      expect(pngs.length).toBeGreaterThanOrEqual(3);
    }
  }, 60_000);
});

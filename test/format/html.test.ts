import { describe, expect, it } from 'vitest';
import { Ranking } from '../../src/commands/report/ranked.js';
import { type GroupReportPageData, renderGroupReportHtml } from '../../src/format/html/group-report.js';
import { createJobFitHtmlWriter } from '../../src/format/html/job-fit.js';
import { CSP, safeHref } from '../../src/format/html/page.js';
import { html as tag, Html } from '../../src/format/html/html.js';
import { clearProgress, createProgress } from '../../src/format/progress.js';
import type { GroupStats } from '../../src/export/group-report.js';
import { memoryIO } from '../helpers/io.js';
import report from './job-fit-report.json' with { type: 'json' };

const XSS = '<img src=x onerror=alert(1)>';
const globals = { color: true, quiet: false, verbose: false };

/** Anything a page could load from outside: a script, a stylesheet, a font, an image, a frame, a CSS url(). */
function outsideReferences(html: string): string[] {
  const found: string[] = [];
  for (const m of html.matchAll(/<(script|link|iframe|object|embed|img|image|use|source|video|audio)\b[^>]*>/gi)) found.push(m[0]);
  for (const tag of html.matchAll(/<[a-z][^>]*>/gi)) for (const m of tag[0].replace(/"[^"]*"/g, '""').matchAll(/\s(src|srcset|xlink:href|action|formaction|background|poster)\s*=/gi)) found.push(m[0]);
  for (const m of html.matchAll(/url\(|@import/gi)) found.push(m[0]);
  return found;
}

function stats(name: string, key: number | null): GroupStats {
  return {
    key,
    name,
    invited: 10,
    accepted: 8,
    completed: 6,
    stars: { '1': 1, '2': 1, '3': 1, '4': 2, '5': 1 },
    median_job_fit_percentage: 55.5,
    top_riasec: [{ code: 'SEC', count: 3 }],
  };
}

function page(over: Partial<GroupReportPageData> = {}): string {
  const ranking = new Ranking(25);
  ranking.add('1', 7, { first_name: XSS, last_name: 'Smith', job_fit_percentage: 91, five_star_score: 5, riasec_profile: 'SEC', scorecard_url: 'https://app.example.com/sc/7' });
  ranking.add('1', 8, { first_name: 'Eve', last_name: null, job_fit_percentage: 40, five_star_score: 2, riasec_profile: 'RIA', scorecard_url: 'javascript:alert(1)' });
  return renderGroupReportHtml({
    scoreProfile: 'sales-rep',
    groupBy: 'team',
    generatedAt: new Date('2026-11-24T10:00:00Z'),
    source: 'the embedded local stub',
    account: 'Northwind (1)',
    top: 25,
    groups: [{ stats: stats(`Team ${XSS}`, 1), ...ranking.group('1') }],
    total: { stats: stats('all', null), bins: ranking.totalBinsOf() },
    ...over,
  });
}

describe('HTML pages: escaping and nothing from outside', () => {
  it('the html tag escapes every value, whatever its type at run time, and safeHref takes http(s) only', () => {
    const e = (v: unknown) => tag`${v as string}`.toString();
    expect(e(XSS)).toBe('&lt;img src=x onerror=alert(1)&gt;');
    expect(e('a"b\'c&')).toBe('a&quot;b&#39;c&amp;');
    expect(e('\u202eevil\x1b[2J')).toBe('\\u202eevil\\x1b[2J');
    expect(e(42)).toBe('42');
    expect(e([XSS, tag`<b>${XSS}</b>`])).toBe('&lt;img src=x onerror=alert(1)&gt;<b>&lt;img src=x onerror=alert(1)&gt;</b>');
    // An object where a number should be (a rank of {"toString": 1}): nothing, not a crash, not markup.
    expect(e({ toString: 1 })).toBe('');
    expect(e({ toString: () => XSS })).toBe('');
    // Only a template literal is a template: a plain array of strings is refused, and Html cannot be made from a string.
    expect(() => (tag as unknown as (s: string[]) => Html)([XSS])).toThrow(/template tag/);
    expect(() => new (Html as unknown as new (s: string) => Html)(XSS)).toThrow(/only by the html tag/);
    expect(safeHref('javascript:alert(1)')).toBeUndefined();
    expect(safeHref('data:text/html,x')).toBeUndefined();
    expect(safeHref({ toString: () => 'https://x' })).toBeUndefined();
    expect(tag`<a href="${safeHref('https://a.example/x?a=1&b="2"')}">`.toString()).toBe('<a href="https://a.example/x?a=1&amp;b=%222%22">');
  });

  it("the page's policy forbids forms and <base> besides everything from outside (issue 42)", () => {
    expect(CSP).toContain("form-action 'none'");
    expect(CSP).toContain("base-uri 'none'");
    expect(CSP).toMatch(/^default-src 'none'/);
    expect(page()).toContain(`<meta http-equiv="Content-Security-Policy" content="${CSP}">`);
  });

  it('a group report: a name like <img …> is text, the only links are http(s) scorecards, nothing loads from outside', () => {
    const html = page();
    expect(html.startsWith('<!DOCTYPE html>')).toBe(true);
    expect(html).not.toContain(XSS);
    expect(html).toContain('&lt;img src=x onerror=alert(1)&gt; Smith');
    expect(html).toContain('Team &lt;img src=x onerror=alert(1)&gt; (team 1)');
    expect(outsideReferences(html)).toEqual([]);
    expect([...html.matchAll(/href="([^"]*)"/g)].map((m) => m[1])).toEqual(['https://app.example.com/sc/7']);
    expect(html).toContain("default-src 'none'");
  });

  it('every chart has a title and a table that says the same', () => {
    const html = page();
    const charts = [...html.matchAll(/<svg class="chart"[^>]*aria-label="([^"]*)"/g)].map((m) => m[1]);
    expect(charts).toEqual(['Funnel of all groups', 'Job fit % of all groups', 'Funnel of Team &lt;img src=x onerror=alert(1)&gt; (team 1)', 'Five-star distribution of Team &lt;img src=x onerror=alert(1)&gt; (team 1)', 'Job fit % of Team &lt;img src=x onerror=alert(1)&gt; (team 1)']);
    expect(html.match(/<table class="equiv">/g)).toHaveLength(charts.length);
    expect(html).toContain('median 55.5%');
    expect(html).toContain('<td>Completed</td><td class="n">6</td><td class="n">60%</td>');
  });

  it('a print stylesheet: charts unsplit, table headers repeated, no fixed paper size', () => {
    const html = page();
    expect(html).toMatch(/@media print\{[^]*thead\{display:table-header-group\}/);
    expect(html).toMatch(/figure\{[^}]*break-inside:avoid/);
    expect(html).not.toMatch(/@page\{[^}]*size:/);
  });
});

describe('Ranking', () => {
  it('keeps the top N per group by job fit, then stars, then id; counts and bins every one', () => {
    const r = new Ranking(3);
    const fits = [10, 95, 50, 95, 100, 0, 72];
    fits.forEach((f, i) => r.add('g', 100 + i, { job_fit_percentage: f, five_star_score: i === 3 ? 5 : 3 }));
    r.add('g', 200, { job_fit_percentage: null, five_star_score: null });
    const g = r.group('g');
    expect(g.ranked.map((c) => c.test_taker_id)).toEqual([104, 103, 101]);
    expect(g.rankable).toBe(7);
    expect(g.bins).toEqual([1, 1, 0, 0, 0, 1, 0, 1, 0, 3]);
    expect(r.totalBinsOf().reduce((a, b) => a + b, 0)).toBe(7);
    expect(r.group('none')).toEqual({ ranked: [], rankable: 0, bins: Array(10).fill(0) });
  });
  it('all: every candidate, in order', () => {
    const r = new Ranking(Number.POSITIVE_INFINITY);
    for (let i = 0; i < 500; i++) r.add('g', i, { job_fit_percentage: (i * 37) % 101, five_star_score: 3 });
    const fits = r.group('g').ranked.map((c) => c.job_fit_percentage ?? -1);
    expect(fits).toHaveLength(500);
    expect(fits).toEqual([...fits].sort((a, b) => b - a));
  });
});

describe('job-fit page', () => {
  it('one section per report: RIASEC chart, 3 interests, 5 traits with facets, 15 job families with stars and bars', async () => {
    const m = memoryIO({ tty: false });
    const w = createJobFitHtmlWriter({ io: m.io, globals }, { count: 2, generatedAt: new Date(0), source: 'the embedded local stub' }, () => [99]);
    w.write(report);
    w.write({ ...report, first_name: XSS });
    await w.end();
    const html = m.stdout();
    expect(html.match(/<section class="person">/g)).toHaveLength(2);
    expect(html).not.toContain(XSS);
    expect(outsideReferences(html)).toEqual([]);
    expect(html.match(/aria-label="RIASEC profile of /g)).toHaveLength(2);
    const first = html.split('<section class="person">')[1];
    for (const i of report.career_interests_profile) expect(first).toContain(`<strong>${i.display_name}</strong>`);
    for (const t of report.personality_traits_profile) expect(first).toContain(`. ${t.display_name} `);
    expect(first.match(/<svg class="fitbar"/g)).toHaveLength(15);
    expect(first.match(/<table class="occupations">[^]*?<\/table>/)![0].match(/aria-label="\d of 5 stars"/g)).toHaveLength(15);
    expect(html).toContain('test taker 99');
    expect(html.trimEnd().endsWith('</html>')).toBe(true);
  });
  it('a rank of another type, a percentage written as text, a field that is an object: the page renders (issue 42: "a bug", exit 1)', async () => {
    const m = memoryIO({ tty: false });
    const w = createJobFitHtmlWriter({ io: m.io, globals }, { count: 1, generatedAt: new Date(0), source: 's' }, () => []);
    const odd = { toString: 1 };
    const occupations = report.top_fit_occupations.map((j, i) => ({ ...j, rank: i === 0 ? odd : '<meta http-equiv="refresh" content="0;url=http://evil/">', job_fit_percentage: i === 1 ? '87.5' : 'lots' }));
    const interests = report.career_interests_profile.map((t) => ({ ...t, rank: odd }));
    const traits = report.personality_traits_profile.map((t) => ({ ...t, rank: '<form action="http://evil/"><input name=q></form>' }));
    w.write({ ...report, top_fit_occupations: occupations, career_interests_profile: interests, personality_traits_profile: traits, first_name: odd, team: 'x', test_taker_id: odd });
    await w.end();
    const page = m.stdout();
    expect(page).not.toMatch(/<meta http-equiv="refresh"|<form|<input/);
    expect(page).toContain('<td class="n">87.5%</td>');
    expect(page.match(/<svg class="fitbar"/g)).toHaveLength(15);
  });
  it('on a terminal the sections wait for end(), so a progress bar cannot interleave', async () => {
    const m = memoryIO({ tty: true });
    const w = createJobFitHtmlWriter({ io: m.io, globals }, { generatedAt: new Date(0), source: 's' }, () => []);
    w.write(report);
    expect(m.stdout()).toBe('');
    await w.end();
    expect(m.stdout()).toContain('<section class="person">');
  });
  it('drained() settles on a stdout whose write already failed (a full disk behind > FILE: no drain ever comes)', async () => {
    const { PassThrough } = await import('node:stream');
    // No reader: the first section fills the buffer and no 'drain' ever comes, as on
    // node's stdout after a failed write (it undoes its own destroy and still needs a drain).
    const stuck = new PassThrough({ highWaterMark: 16 });
    const failure: NodeJS.ErrnoException = Object.assign(new Error('no space left on device'), { code: 'ENOSPC' });
    const m = memoryIO({ tty: false });
    const io = { ...m.io, stdout: stuck, stdoutError: () => failure };
    const w = createJobFitHtmlWriter({ io, globals }, { count: 1, generatedAt: new Date(0), source: 's' }, () => []);
    expect(w.write(report)).toBe(false);
    expect(stuck.writableNeedDrain).toBe(true);
    // Settles (it waited for the 'drain' before, and the run ended with exit 13).
    await expect(w.drained()).resolves.toBeUndefined();
  });
  it('drained() waits while stdout needs a drain, and not for a drain already past', async () => {
    const { PassThrough } = await import('node:stream');
    const out = new PassThrough({ highWaterMark: 16 });
    const m = memoryIO({ tty: false });
    const w = createJobFitHtmlWriter({ io: { ...m.io, stdout: out }, globals }, { count: 1, generatedAt: new Date(0), source: 's' }, () => []);
    expect(w.write(report)).toBe(false);
    let done = false;
    const waiting = w.drained().then(() => (done = true));
    await new Promise((res) => setImmediate(res));
    expect(done).toBe(false);
    out.resume();
    await waiting;
    expect(done).toBe(true);
    // A caller that comes after the 'drain' already fired does not wait for another.
    const late = new PassThrough({ highWaterMark: 16 });
    const v = createJobFitHtmlWriter({ io: { ...m.io, stdout: late }, globals }, { count: 1, generatedAt: new Date(0), source: 's' }, () => []);
    expect(v.write(report)).toBe(false);
    late.resume();
    await new Promise((res) => late.once('drain', res));
    await expect(v.drained()).resolves.toBeUndefined();
  });
});

describe('progress on a terminal', () => {
  it('the first frame waits for the real total (no full bar at 0/0)', () => {
    const m = memoryIO({ tty: true, columns: 100 });
    const p = createProgress({ io: m.io, globals }, { label: 'Scorecards' });
    p.tick();
    expect(m.stderr()).toBe('');
    p.setTotal(40);
    expect(m.stderr()).toContain('1/40');
    expect(m.stderr()).not.toContain('0/0');
    p.stop();
  });
  it('clearProgress erases the bar and nothing is drawn after it', () => {
    const m = memoryIO({ tty: true, columns: 100 });
    const p = createProgress({ io: m.io, globals }, { label: 'Scorecards', total: 3 });
    p.tick();
    clearProgress({ io: m.io });
    const after = m.stderr().length;
    expect(m.stderr().slice(-20)).toMatch(/\x1b\[(2)?K$/);
    expect(p.active).toBe(false);
    p.tick();
    p.stop();
    expect(m.stderr().length).toBe(after);
  });
});

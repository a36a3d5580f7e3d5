/**
 * Issue 44, item 5: the printed job-fit page a new user reads.
 */
import { describe, expect, it } from 'vitest';

describe('the job-fit page', () => {
  it('explains RIASEC, lists the ranked interests first, tells repeated job families apart, and prints long tables without blank pages', async () => {
    const { createJobFitHtmlWriter } = await import('../../src/format/html/job-fit.js');
    const { memoryIO } = await import('../helpers/io.js');
    const report = (await import('../format/job-fit-report.json', { with: { type: 'json' } })).default as Record<string, unknown> & { top_fit_occupations: Array<Record<string, unknown>> };
    const occ = report.top_fit_occupations.map((o, i) => (i === 1 ? { ...o, job_family_name: report.top_fit_occupations[0].job_family_name } : o));
    const m = memoryIO({ tty: false });
    const w = createJobFitHtmlWriter({ io: m.io, globals: { color: false, quiet: true, verbose: false } }, { count: 1, generatedAt: new Date(0), source: 's' }, () => []);
    w.write({ ...report, top_fit_occupations: occ });
    await w.end();
    const html = m.stdout();
    expect(html).toContain('<b>R</b> Realistic');
    expect(html).toContain('not the score the service ranks by');
    // The chart's rows: #1, #2, #3 first.
    const ranks = [...html.matchAll(/>#(\d)</g)].map((x) => Number(x[1]));
    expect(ranks.slice(0, 3)).toEqual([1, 2, 3]);
    // The two rows of one name each say their zone and number.
    const name = String(occ[0].job_family_name);
    expect(html.split(`${name} <span class="note">(zone `).length - 1).toBe(2);
    expect(html).toMatch(/@media print\{[^}]*[\s\S]*figure:has\(table\.occupations\)[^{]*\{break-inside:auto/);
    expect(html).toContain('tbody tr:nth-child(-n+3){break-before:avoid');
  });
});

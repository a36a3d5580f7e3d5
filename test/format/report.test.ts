import { describe, expect, it } from 'vitest';
import { bar, renderBarChart, stars } from '../../src/format/chart.js';
import { printJobFitReports, rangeGauge, renderJobFitReport } from '../../src/format/jobfit-report.js';
import { createProgress, formatDuration } from '../../src/format/progress.js';
import { memoryIO } from '../helpers/io.js';
import report from './job-fit-report.json' with { type: 'json' };

const ANSI = /\x1b\[/;
const width = (s: string) => [...s.replace(/\x1b\[[0-9;]*m/g, '')].length;

describe('bar and stars', () => {
  it('fills to the fraction with eighth blocks', () => {
    expect(bar(0, 10)).toBe('░'.repeat(10));
    expect(bar(1, 10)).toBe('█'.repeat(10));
    expect(bar(0.5, 10)).toBe(`${'█'.repeat(5)}${'░'.repeat(5)}`);
    expect(bar(0.05, 10)).toBe(`▌${'░'.repeat(9)}`);
    expect([...bar(0.914, 25)]).toHaveLength(25);
    expect(bar(2, 4)).toBe('████');
    expect(bar(Number.NaN, 3)).toBe('░░░');
  });
  it('stars', () => {
    expect(stars(3)).toBe('★★★☆☆');
    expect(stars(null)).toBe('☆☆☆☆☆');
    expect(stars(9)).toBe('★★★★★');
  });
});

describe('renderJobFitReport', () => {
  const text = renderJobFitReport(report, { width: 100, color: false });
  const lines = text.trimEnd().split('\n');

  it('has the person, ids, RIASEC code, 3 interests, 5 traits and 15 job families', () => {
    expect(lines[0]).toBe('Ada Lovelace  <ada@example.com>');
    expect(lines[1]).toContain('test taker 42 · invitation 101 · custom id REQ-7');
    expect(text).toContain(`RIASEC code  ${report.riasec_profile}`);
    for (const i of report.career_interests_profile) expect(text).toContain(i.display_name);
    for (const t of report.personality_traits_profile) expect(text).toContain(t.display_name);
    const families = lines.filter((l) => /^\s*\d+ {2}\S/.test(l) && l.includes('★'));
    expect(families).toHaveLength(15);
    const first = report.top_fit_occupations[0];
    expect(families[0]).toContain(first.job_family_name);
    expect(families[0]).toContain(`${first.job_fit_percentage.toFixed(1)}%`);
    expect(families[0]).toContain(stars(first.job_fit_star_rating));
  });
  it('shows each top trait with its facet ranges', () => {
    const trait = report.personality_traits_profile[0];
    const full = report.personality_traits.find((t) => t.id === trait.id)!;
    for (const f of full.facets) {
      expect(text).toMatch(new RegExp(`${f.display_name}\\s+${rangeGauge(f.test_taker_score_range)} ${f.test_taker_score_range}`));
    }
  });
  it('fits the terminal width and scales the bar to it', () => {
    for (const w of [60, 80, 120]) {
      const t = renderJobFitReport(report, { width: w, color: false });
      for (const l of t.trimEnd().split('\n')) expect(width(l)).toBeLessThanOrEqual(w);
    }
    const barLen = (w: number) => /█[█▏▎▍▌▋▊▉░]*/.exec(renderJobFitReport(report, { width: w, color: false }).split('Top job families')[1])![0].length;
    expect(barLen(60)).toBeLessThan(barLen(100));
  });
  it('colour only when allowed', () => {
    expect(text).not.toMatch(ANSI);
    expect(renderJobFitReport(report, { width: 100, color: true })).toMatch(ANSI);
  });
  it('survives nulls and missing sections from a lenient client', () => {
    const t = renderJobFitReport({ first_name: null, top_fit_occupations: [{ job_family_name: 'X', job_fit_percentage: null, job_fit_star_rating: null }] }, { width: 80, color: false });
    expect(t).toContain('(no name)');
    expect(t).toContain('☆☆☆☆☆');
    expect(renderJobFitReport(null, { width: 80, color: false })).toBe('(no name)\n');
  });
  it('survives fields of another type: a percentage written as text, a rank that is an object (issue 42: "a bug", exit 1)', () => {
    const odd = { toString: 1 };
    const t = renderJobFitReport(
      {
        first_name: odd,
        career_interests_profile: [{ display_name: 'Artistic', rank: odd }],
        personality_traits_profile: [{ display_name: 'Calm', rank: '2' }, { display_name: 'Bold', rank: [1] }],
        top_fit_occupations: [
          { job_family_name: 'X', job_fit_percentage: '87.5', job_fit_star_rating: '4', rank: odd },
          { job_family_name: 'Y', job_fit_percentage: 'lots', job_fit_star_rating: {}, rank: 1 },
        ],
      },
      { width: 100, color: false },
    );
    expect(t).toContain('(no name)');
    expect(t).toMatch(/X .* 87\.5%/);
    expect(t).toMatch(/Y .* -%/);
    expect(t).toMatch(/2\. Calm[^]*-\. Bold/);
  });
  it('printJobFitReports writes several reports on stdout, terminal rules applied', () => {
    const m = memoryIO({ tty: true, columns: 90, env: { NO_COLOR: '1' } });
    printJobFitReports({ io: m.io, globals: { color: true, quiet: false, verbose: false } }, [report, report]);
    expect(m.stdout().match(/RIASEC code/g)).toHaveLength(2);
    expect(m.stdout()).toContain('─'.repeat(80));
    expect(m.stdout()).not.toMatch(ANSI);
  });
});

describe('renderBarChart', () => {
  it('draws one line per row with count and share, scaled to the largest', () => {
    const rows = [1, 2, 3, 4, 5].map((n, i) => ({ label: stars(n), value: [0, 5, 10, 20, 5][i] }));
    const t = renderBarChart(rows, { width: 60 });
    const lines = t.trimEnd().split('\n');
    expect(lines).toHaveLength(5);
    expect(lines[3]).toMatch(/^★★★★☆ {2}█+ {2}20 {4}50%$/);
    expect(lines[0]).toMatch(/^★☆☆☆☆ +0 {5}0%$/);
    for (const l of lines) expect(width(l)).toBeLessThanOrEqual(60);
    const full = (/█+/.exec(lines[3]) ?? [''])[0].length;
    const half = (/█+/.exec(lines[2]) ?? [''])[0].length;
    expect(half).toBe(full / 2);
    expect(t).not.toMatch(ANSI);
    expect(renderBarChart(rows, { width: 60, color: true })).toMatch(ANSI);
    expect(renderBarChart([], { width: 60 })).toBe('');
  });
});

describe('createProgress', () => {
  it('is silent without a terminal but counts, and summarises in one line', () => {
    const m = memoryIO({ tty: false });
    let t = 0;
    const p = createProgress({ io: m.io, globals: { color: true, quiet: false, verbose: false } }, { total: 10, noun: 'invitations', clock: () => t });
    for (let i = 0; i < 10; i++) p.tick({ error: i < 2 });
    t = 2000;
    expect(p.active).toBe(false);
    expect(m.stderr()).toBe('');
    p.finish();
    expect(m.stderr()).toBe('10 invitations: 8 done, 2 failed, in 2.0s (5/s)\n');
    expect(p.errors).toBe(2);
  });
  it('draws a bar on a terminal, with done/total, rate and errors', () => {
    const m = memoryIO({ tty: true, columns: 100 });
    let t = 0;
    const p = createProgress({ io: m.io, globals: { color: true, quiet: false, verbose: false } }, { total: 4, label: 'Inviting', clock: () => t });
    expect(p.active).toBe(true);
    t = 1000;
    p.tick();
    p.tick({ error: true });
    p.stop();
    const err = m.stderr();
    expect(err).toContain('Inviting');
    expect(err).toContain('2/4');
    expect(err).toContain('2/s');
    expect(err).toContain('1 failed');
    expect(m.stdout()).toBe('');
  });
  it('--quiet draws nothing and prints no summary', () => {
    const m = memoryIO({ tty: true });
    const p = createProgress({ io: m.io, globals: { color: true, quiet: true, verbose: false } }, { total: 1 });
    p.tick();
    p.finish();
    expect(m.stderr()).toBe('');
  });
  it('formatDuration', () => {
    expect(formatDuration(1234)).toBe('1.2s');
    expect(formatDuration(125_000)).toBe('2m05s');
    expect(formatDuration(3_900_000)).toBe('1h05m');
  });
});

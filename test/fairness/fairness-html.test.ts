/**
 * The fairness page (-o html) from the real pipeline (FairnessJoin →
 * buildFairnessReport → renderFairnessHtml) on made-up people: 2 sexes × 3
 * races (6 groups in the intersection): every value escaped, the file named
 * by its hash, and, in headless Chromium, at most two printed sheets on A4
 * and on Letter.
 */
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { Categories } from '../../src/fairness/categories.js';
import { renderFairnessHtml } from '../../src/fairness/html.js';
import { FairnessJoin } from '../../src/fairness/join.js';
import { SCORING_RATE } from '../../src/fairness/outcome.js';
import { buildFairnessReport } from '../../src/fairness/report.js';
import type { SelfId } from '../../src/fairness/selfid.js';

const CHROMIUM = '/usr/bin/chromium';
const HOSTILE = '<img src=x onerror=alert(1)>';
const dir = mkdtempSync(join(tmpdir(), 'jobfit-fair-html-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function page(): string {
  const sex = new Categories();
  const race = new Categories();
  const answers = new Map<string, Int32Array>();
  const join = (id: number) => `p${id}@example.org`;
  const races = ['White', 'Black or African American', HOSTILE];
  for (let i = 0; i < 600; i++) answers.set(join(i), Int32Array.from([sex.indexOf(i % 2 ? 'Female' : 'Male'), race.indexOf(races[i % 3])]));
  const selfId: SelfId = { join: 'email', columns: ['Sex', 'Race'], answers, categories: [sex, race], sha256: 'ab'.repeat(32), rows: 600, rowsWithoutKey: 0, duplicateRows: 0 };
  const j = new FairnessJoin(selfId);
  for (let i = 0; i < 600; i++) {
    j.addInvitation({ id: i, email: join(i) }, i);
    j.addScorecard(i, { job_fit_percentage: (i * 37) % 100 - (i % 3 === 2 ? 15 : 0), five_star_score: 3 });
    j.addTestTaker(i, { assigned_assessments: [{ completed_at: i % 5 ? '2026-01-01T00:00:00Z' : null }] });
  }
  const r = buildFairnessReport({ join: j, outcome: SCORING_RATE, rules: { minGroup: 5, excludeUnder: 0 }, completion: true }, { scoreProfile: 'sales-rep', teamId: undefined, now: new Date('2026-11-28T00:00:00Z') });
  return renderFairnessHtml(r, { source: 'the embedded local stub', mode: 'test' });
}

describe('the fairness page', () => {
  const html = page();
  const file = join(dir, 'fair.html');
  writeFileSync(file, html);

  it('escapes a category name, names the file by its SHA-256, says the date, the profile, the rule and the method', () => {
    expect(html).not.toContain(HOSTILE);
    expect(html).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(html).toContain('ab'.repeat(32));
    expect(html).toContain('2026-11-28 00:00:00 UTC');
    expect(html).toContain('score profile sales-rep');
    expect(html).toContain('0.8 (four fifths)');
    expect(html).toContain('29 CFR 1607.4 D');
    expect(html).toContain('not a finding of discrimination');
    expect(html).not.toMatch(/<script/i);
  });

  it.skipIf(!existsSync(CHROMIUM))('prints on two sheets at most, on A4 and on Letter, with scripts off and nothing fetched', async () => {
    const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-gpu'] });
    try {
      const ctx = await browser.newContext({ javaScriptEnabled: false });
      const p = await ctx.newPage();
      const fetched: string[] = [];
      p.on('request', (r) => {
        if (!r.url().startsWith('file://')) fetched.push(r.url());
      });
      await p.goto(`file://${file}`);
      expect(await p.locator('img').count()).toBe(0);
      expect(await p.locator('body').innerText()).toContain(HOSTILE);
      for (const format of ['A4', 'Letter'] as const) {
        const pdf = await p.pdf({ format, printBackground: true });
        const pages = pdf.toString('latin1').match(/\/Type\s*\/Page[^s]/g)?.length ?? 0;
        expect(pages, format).toBeGreaterThan(0);
        expect(pages, format).toBeLessThanOrEqual(2);
      }
      expect(fetched).toEqual([]);
    } finally {
      await browser.close();
    }
  }, 60_000);
});

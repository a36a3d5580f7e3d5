/**
 * Issue 44, item 5: "two candidates print on 6 mostly blank pages". The
 * job-fit page of two candidates printed (Chromium, A4 and Letter) takes two
 * sheets per candidate, and its long tables may break between rows.
 */
import { existsSync } from 'node:fs';
import { chromium } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { createJobFitHtmlWriter } from '../../src/format/html/job-fit.js';
import { memoryIO } from '../helpers/io.js';
import report from './job-fit-report.json' with { type: 'json' };

const CHROMIUM = '/usr/bin/chromium';

describe('the job-fit page in print', () => {
  it.skipIf(!existsSync(CHROMIUM))('two candidates: at most four sheets on A4 and on Letter', async () => {
    const m = memoryIO({ tty: false });
    const w = createJobFitHtmlWriter({ io: m.io, globals: { color: false, quiet: true, verbose: false } }, { count: 2, generatedAt: new Date(0), source: 's' }, () => []);
    w.write(report);
    w.write({ ...report, first_name: 'Second' });
    await w.end();
    const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-gpu'] });
    try {
      const p = await (await browser.newContext({ javaScriptEnabled: false })).newPage();
      await p.setContent(m.stdout());
      for (const format of ['A4', 'Letter'] as const) {
        const pdf = await p.pdf({ format, printBackground: true });
        const pages = pdf.toString('latin1').match(/\/Type\s*\/Page[^s]/g)?.length ?? 0;
        expect(pages, format).toBeGreaterThanOrEqual(2);
        expect(pages, format).toBeLessThanOrEqual(4);
      }
    } finally {
      await browser.close();
    }
  }, 60_000);
});

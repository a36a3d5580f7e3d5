/**
 * Issue 14, "Wording and small things": what a terminal shows: the progress
 * line's numbers, JOBFIT_NO_PROMPT named as the reason no prompt came, and
 * `jobfit users`' table of the defaults each user lacks.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProgress } from '../../src/format/progress.js';
import { runCli } from '../helpers/cli.js';
import { memoryIO } from '../helpers/io.js';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'jobfit-small-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('what a terminal shows', () => {
  it('the progress line groups every number the same way', () => {
    const m = memoryIO({ tty: true, columns: 120 });
    let t = 0;
    const p = createProgress({ io: m.io, globals: { color: false, quiet: false, verbose: false } }, { total: 3130, noun: 'rows', clock: () => (t += 10) });
    p.tick({ n: 1592 });
    p.stop();
    expect(m.stderr()).toContain('1,592/3,130');
    expect(m.stderr()).not.toMatch(/\b1592\b/);
  });

  it('JOBFIT_NO_PROMPT on a terminal is named as the reason, not "no terminal"', async () => {
    const r = await runCli(['login'], { configDir: join(dir, 'np'), tty: true, env: { JOBFIT_NO_PROMPT: '1' } });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('Error: No API key given and prompts are off: JOBFIT_NO_PROMPT is set.');
    const piped = await runCli(['login'], { configDir: join(dir, 'np') });
    expect(piped.stderr).toContain('Error: No API key given and no terminal to ask on.');
  });

  it('jobfit users shows which defaults each user lacks', async () => {
    const r = await runCli(['users'], { configDir: join(dir, 'users'), tty: true, columns: 250 });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('LACKS (INVITE NEEDS)');
    expect(r.stdout).toMatch(/ingrid\.halvorsen@northwind-talent\.example.*team \(--team\)/);
  });
});

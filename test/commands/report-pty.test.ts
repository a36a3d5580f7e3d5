/**
 * `report` and multi-id `job-fit` on a real terminal (a pseudo-terminal):
 * the progress bar is drawn on stderr while the scorecards come in, erased
 * before the report prints, and never drawn again: nothing follows the
 * report's last line but the one-line summary. The first frame shows the
 * real total, never a full bar at 0/0.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BuiltCli, buildCli } from '../e2e/built.js';
import { type StartedStub, startStub } from '../helpers/stub.js';
import { runCli } from '../helpers/cli.js';
import { spawnPty, stripAnsi } from '../helpers/pty.js';

let dir: string;
let stub: StartedStub;
let cli: BuiltCli;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'jobfit-pty-report-'));
  const seeded = await runCli(['stub', 'seed', '--test-takers', '3000', '--teams', '3', '--data', join(dir, 'stub')]);
  expect(seeded.code, seeded.stderr).toBe(0);
  stub = await startStub({ dataDir: join(dir, 'stub') });
  cli = buildCli();
}, 90_000);

afterAll(async () => {
  cli?.close();
  await stub?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

async function onTerminal(args: string[]) {
  const term = spawnPty(process.execPath, [cli.bin, ...args], {
    cols: 120,
    rows: 40,
    env: { JOBFIT_CONFIG_DIR: join(dir, 'config'), JOBFIT_BASE_URL: stub.url, JOBFIT_API_KEY: stub.keys[0].live_key, NO_COLOR: '1' },
  });
  const done = await term.wait(90_000);
  return { code: done.code, raw: term.raw(), text: stripAnsi(term.raw()) };
}

/** Everything after the last line of the report, as the terminal got it. */
function after(raw: string, lastLine: string): string {
  const at = raw.lastIndexOf(lastLine);
  expect(at, `"${lastLine}" in the output`).toBeGreaterThan(-1);
  return raw.slice(at + lastLine.length);
}

describe('on a pseudo-terminal', () => {
  it('report: the bar shows the real total, is erased before the report, and nothing is drawn after its last line', async () => {
    const { code, raw, text } = await onTerminal(['report', '--sp', 'sales-rep']);
    expect(code, text.slice(-2000)).toBe(0);
    // The bar was drawn while the scorecards came in, with the total in its first frame.
    const frames = [...text.matchAll(/Scorecards [█░]+ ([\d,]+)\/([\d,]+)/g)];
    expect(frames.length).toBeGreaterThan(0);
    expect(frames[0][2]).not.toBe('0');
    expect(text).not.toMatch(/Scorecards [█░]+ 0\/0/);
    // The report starts after the last frame, which was erased (clear line) first.
    const firstGroup = text.indexOf('invited ');
    expect(firstGroup).toBeGreaterThan(text.lastIndexOf('Scorecards '));
    const lastFrame = raw.lastIndexOf('Scorecards ');
    expect(raw.slice(lastFrame, raw.indexOf('invited ', lastFrame))).toMatch(/\x1b\[2?K/);
    // The report's last line (the totals' chart), then only the summary: no bar, no cursor games.
    const lines = text.trimEnd().split(/\r?\n/);
    const summary = lines.findIndex((l) => /^[\d,]+ invitations \(total_count/.test(l));
    expect(summary).toBe(lines.length - 1);
    const last = lines.slice(0, summary).filter((l) => l.trim()).at(-1)!;
    const rest = after(raw, last);
    expect(stripAnsi(rest)).not.toMatch(/Scorecards|█|░/);
    expect(rest).not.toMatch(/\x1b\[\d*[ABGHJK]|\r(?!\n)/);
  }, 120_000);

  it('job-fit ID ID ID: the same, drawn reports and no frame after them', async () => {
    const ids = stub.server!.store
      .all<{ id: number }>(
        `SELECT t.id FROM test_takers t WHERE t.account_id = 1
         AND EXISTS (SELECT 1 FROM assigned_assessments a WHERE a.test_taker_id = t.id AND a.test_id = 6 AND a.completed_at IS NOT NULL)
         AND EXISTS (SELECT 1 FROM assigned_assessments a WHERE a.test_taker_id = t.id AND a.test_id = 8 AND a.completed_at IS NOT NULL)
         ORDER BY t.id LIMIT 4`,
      )
      .map((r) => String(r.id));
    const { code, raw, text } = await onTerminal(['job-fit', ...ids]);
    expect(code, text.slice(-2000)).toBe(0);
    expect(text.match(/RIASEC code/g)).toHaveLength(4);
    expect(text).not.toMatch(/Job-fit reports [█░]+ 0\/0/);
    const firstReport = text.indexOf('RIASEC code');
    expect(firstReport).toBeGreaterThan(text.lastIndexOf('Job-fit reports '));
    const lines = text.trimEnd().split(/\r?\n/);
    expect(lines.at(-1)).toMatch(/^4 test takers: 4 written, 0 failed/);
    const rest = after(raw, lines.slice(0, -1).filter((l) => l.trim()).at(-1)!);
    expect(stripAnsi(rest)).not.toMatch(/Job-fit reports|░/);
    expect(rest).not.toMatch(/\x1b\[\d*[ABGHJK]|\r(?!\n)/);
  }, 120_000);
});

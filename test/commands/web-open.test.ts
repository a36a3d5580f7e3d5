/**
 * Issue 44, item 4: links open. `--web` on `invitations get`, `test-takers
 * get`, `scorecard ID` and `job-fit ID` hands the page's URL to the browser
 * (BROWSER here: a script that writes down what it was given), prints it off a
 * terminal or with no browser; `report -o html --out F --open` opens the page.
 * On `stub serve` the scorecard and job-fit summary URLs answer a page, so the
 * report's links work offline.
 */
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openerOf, urlOf } from '../../src/commands/shared/open-url.js';
import { runCli } from '../helpers/cli.js';
import { type StartedStub, startStub } from '../helpers/stub.js';
import { DANA } from '../helpers/seeded.js';
import { skipBecause } from '../helpers/skip.js';

/** The recording browser is a shell script. */
const skipOnWindows = skipBecause(process.platform === 'win32' && 'the recording browser is a shell script');

let dir: string;
let stub: StartedStub;
let env: Record<string, string>;
let invitationId: number;
let pendingId: number;
let testTakerId: number;
let browser: string;
let seen: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'jobfit-web-'));
  const data = join(dir, 'stub');
  stub = await startStub({ dataDir: data });
  env = stub.env;
  const invite = async (email: string) => {
    const r = await runCli(['-o', 'json', 'invite', '--first-name', 'Ana', '--last-name', 'Web', '--email', email, '--created-by', DANA, '--yes'], { env });
    expect(r.code, r.stderr).toBe(0);
    return JSON.parse(r.stdout).id as number;
  };
  invitationId = await invite('ana.web@example.com');
  pendingId = await invite('ana.pending@example.com');
  const accepted = await runCli(['-o', 'json', 'stub', 'accept', String(invitationId), '--data', data], { configDir: join(dir, 'c') });
  expect(accepted.code, accepted.stderr).toBe(0);
  testTakerId = JSON.parse(accepted.stdout).test_taker_id;
  const done = await runCli(['stub', 'complete', String(testTakerId), '--assessment', 'all', '--data', data], { configDir: join(dir, 'c') });
  expect(done.code, done.stderr).toBe(0);
  // The "browser": writes down the URL it is given.
  seen = join(dir, 'seen.txt');
  browser = join(dir, 'browser.sh');
  writeFileSync(browser, `#!/bin/sh\nprintf '%s\\n' "$1" >> '${seen}'\n`);
  chmodSync(browser, 0o755);
}, 120_000);
afterAll(async () => {
  await stub?.stop();
  rmSync(dir, { recursive: true, force: true });
});

/** The browser runs detached: its file can exist before its line is in it (a shell's `>>` opens, then writes), so wait for a whole line. */
async function opened(): Promise<string[]> {
  const whole = () => existsSync(seen) && readFileSync(seen, 'utf8').endsWith('\n');
  for (let i = 0; i < 100 && !whole(); i++) await new Promise((r) => setTimeout(r, 50));
  const lines = readFileSync(seen, 'utf8').trim().split('\n');
  rmSync(seen);
  return lines;
}

describe('--web at a terminal hands the URL to the browser', () => {
  it.skipIf(skipOnWindows)('test-takers get ID --web: the scorecard URL; nothing on stdout', async () => {
    const tt = JSON.parse((await runCli(['-o', 'json', 'test-takers', 'get', String(testTakerId)], { env })).stdout);
    const r = await runCli(['test-takers', 'get', String(testTakerId), '--web'], { env: { ...env, BROWSER: browser }, tty: true });
    expect(r.code, r.stderr).toBe(0);
    expect(await opened()).toEqual([tt.scorecard_url]);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain(`Opening the scorecard of test taker ${testTakerId} in your browser`);
  });

  it.skipIf(skipOnWindows)('scorecard ID --sp --web, job-fit ID --web, invitations get ID --web', async () => {
    const tt = JSON.parse((await runCli(['-o', 'json', 'test-takers', 'get', String(testTakerId)], { env })).stdout);
    const e = { ...env, BROWSER: browser };
    expect((await runCli(['scorecard', String(testTakerId), '--sp', 'sales-rep', '--web'], { env: e, tty: true })).code).toBe(0);
    expect(await opened()).toEqual([tt.scorecard_url]);
    expect((await runCli(['job-fit', String(testTakerId), '--web'], { env: e, tty: true })).code).toBe(0);
    expect(await opened()).toEqual([tt.job_fit_summary_url]);
    expect((await runCli(['invitations', 'get', String(invitationId), '--web'], { env: e, tty: true })).code).toBe(0);
    expect(await opened()).toEqual([tt.scorecard_url]);
    // Not accepted: the participant's assessment link.
    const pending = JSON.parse((await runCli(['-o', 'json', 'invitations', 'get', String(pendingId)], { env })).stdout);
    expect((await runCli(['invitations', 'get', String(pendingId), '--web'], { env: e, tty: true })).code).toBe(0);
    expect(await opened()).toEqual([pending.assessment_url]);
  });
});

describe('off a terminal, or with no browser: the URL on stdout', () => {
  it('piped: the URL only, no browser started', async () => {
    const r = await runCli(['test-takers', 'get', String(testTakerId), '--web'], { env: { ...env, BROWSER: browser } });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/results\/[\w-]+\/scorecard\n$/);
    expect(existsSync(seen)).toBe(false);
  });

  it('a terminal with no display and no BROWSER (Linux): the URL, and why', async () => {
    if (process.platform !== 'linux') return;
    const r = await runCli(['job-fit', String(testTakerId), '--web'], { env, tty: true });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/\/results\/[\w-]+\/job-fit-summary\n$/);
    expect(r.stderr).toContain('No browser to open the job-fit summary');
  });

  it('a page the service has not made yet: one sentence, exit 1', async () => {
    const r = await runCli(['job-fit', '999999999', '--web'], { env });
    expect(r.code).not.toBe(0);
    const two = await runCli(['scorecard', '1', '2', '--sp', 'sales-rep', '--web'], { env });
    expect(two.code).toBe(2);
    expect(two.stderr).toContain('--web opens the page of one test taker');
  });
});

describe('report -o html --out F --open', () => {
  it.skipIf(skipOnWindows)('opens the page it wrote (file:// URL)', async () => {
    const out = join(dir, 'report.html');
    const r = await runCli(['-o', 'html', 'report', '--sp', 'sales-rep', '--out', out, '--open'], { env: { ...env, BROWSER: browser }, tty: true });
    expect(r.code, r.stderr).toBe(0);
    expect(await opened()).toEqual([pathToFileURL(out).href]);
  });

  it('--open without -o html --out is a usage error', async () => {
    const r = await runCli(['report', '--sp', 'sales-rep', '--open'], { env });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--open opens the page of -o html --out FILE');
  });
});

describe('stub serve answers the result URLs with a page', () => {
  it('scorecard_url and job_fit_summary_url: 200, the person and the results; the report\'s links all answer', async () => {
    const tt = JSON.parse((await runCli(['-o', 'json', 'test-takers', 'get', String(testTakerId)], { env })).stdout);
    const card = await fetch(tt.scorecard_url);
    expect(card.status).toBe(200);
    expect(card.headers.get('content-type')).toContain('text/html');
    const cardHtml = await card.text();
    expect(cardHtml).toContain('<h1>Scorecard</h1>');
    expect(cardHtml).toContain('Ana Web');
    expect(cardHtml).toContain('sales-rep');
    const fit = await fetch(tt.job_fit_summary_url);
    expect(fit.status).toBe(200);
    expect(await fit.text()).toContain('<h1>Job-fit summary</h1>');
    // The report's candidate links (the offline demo): every one answers a page.
    const page = await runCli(['-o', 'html', 'report', '--sp', 'sales-rep', '--top', 'all'], { env });
    const links = [...page.stdout.matchAll(/href="(http:\/\/127\.0\.0\.1:\d+\/results\/[^"]+)"/g)].map((m) => m[1].replaceAll('&amp;', '&'));
    expect(links.length).toBeGreaterThan(0);
    for (const l of links.slice(0, 20)) expect((await fetch(l)).status, l).toBe(200);
  });

  it('an unknown token, or a result not ready: a page that says so (404), never a stack', async () => {
    const r = await fetch(`${stub.server!.origin}/results/nope/scorecard`);
    expect(r.status).toBe(404);
    expect(await r.text()).toContain('No results yet');
  });
});

describe('the opener of each platform', () => {
  it('BROWSER wins; macOS open, Windows explorer.exe, xdg-open only with a display', () => {
    expect(openerOf('linux', { BROWSER: 'firefox' })).toEqual({ command: 'firefox', args: [] });
    expect(openerOf('linux', { JOBFIT_BROWSER: 'a', BROWSER: 'b' })?.command).toBe('a');
    expect(openerOf('darwin', {})?.command).toBe('open');
    expect(openerOf('win32', {})?.command).toBe('explorer.exe');
    expect(openerOf('linux', { DISPLAY: ':0' })?.command).toBe('xdg-open');
    expect(openerOf('linux', { WAYLAND_DISPLAY: 'wayland-0' })?.command).toBe('xdg-open');
    expect(openerOf('linux', {})).toBeUndefined();
    expect(urlOf('https://x.example/a?b=1&c=2')).toBe('https://x.example/a?b=1&c=2');
    expect(urlOf(join(dir, 'r.html'))).toBe(pathToFileURL(join(dir, 'r.html')).href);
  });
});

/**
 * The whole life of an invitation, offline, in real events: `stub serve` and
 * `webhook listen --log F` (built binary, spawned), `invite`, then the
 * participant's page clicked through in headless Chromium. F must hold every
 * event exactly once, with payloads that match what the API reads back.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { skipBecause } from '../helpers/skip.js';
import { openStore } from '../../src/stub/index.js';
import { getWebhookSettings } from '../../src/stub/webhooks/settings.js';
import { api, INVITER, tempDir, until, withoutMode } from './helpers.js';

const CHROMIUM = '/usr/bin/chromium';
const hasChromium = existsSync(CHROMIUM);
const ROOT = new URL('../../', import.meta.url).pathname;
const BIN = join(ROOT, 'bin/jobfit.js');

interface Proc {
  child: ChildProcess;
  stdout: string;
  stderr: string;
  exited: Promise<number | null>;
}

function start(args: string[], env: Record<string, string>): Proc {
  const child = spawn(process.execPath, [BIN, ...args], { env: { ...process.env, ...env, NO_COLOR: '1' }, stdio: ['ignore', 'pipe', 'pipe'] });
  const p: Proc = { child, stdout: '', stderr: '', exited: new Promise((ok) => child.on('exit', (code) => ok(code))) };
  child.stdout?.on('data', (c) => {
    p.stdout += c;
  });
  child.stderr?.on('data', (c) => {
    p.stderr += c;
  });
  return p;
}

describe.skipIf(skipBecause(!hasChromium && 'the browser test needs /usr/bin/chromium (run .ci/setup-browser)'))("participant's page in headless Chromium → webhook listen --log", () => {
  const tmp = tempDir('jobfit-e2e-');
  const dataDir = join(tmp.dir, 'stub');
  const logFile = join(tmp.dir, 'events.ndjson');
  const env = { JOBFIT_CONFIG_DIR: join(tmp.dir, 'config'), JOBFIT_STUB_WEBHOOK_RETRY: '100ms,200ms,400ms' };
  let serve: Proc | undefined;
  let listen: Proc | undefined;
  let stubUrl = '';
  let liveKey = '';

  beforeAll(async () => {
    if (!existsSync(join(ROOT, 'dist/main.js'))) execFileSync(process.execPath, [join(ROOT, 'scripts/build.mjs')], { cwd: ROOT, stdio: 'ignore' });
    serve = start(['stub', 'serve', '--port', '0', '--data', dataDir], env);
    await until(() => /live key: (sk_live_\w+)/.test(serve!.stdout), 'stub serve to start', 20_000);
    stubUrl = /Stub listening on (\S+)/.exec(serve.stdout)![1];
    liveKey = /live key: (sk_live_\w+)/.exec(serve.stdout)![1];
  }, 60_000);

  afterAll(async () => {
    for (const p of [listen, serve]) {
      if (p && p.child.exitCode === null) {
        p.child.kill('SIGINT');
        await Promise.race([p.exited, new Promise((r) => setTimeout(r, 5000))]);
        if (p.child.exitCode === null) p.child.kill('SIGKILL');
      }
    }
    tmp.remove();
  });

  it('invite, accept and complete three assessments in the browser: each event in the log exactly once, matching the API', async () => {
    listen = start(['webhook', 'listen', '--data', dataDir, '--log', logFile], env);
    await until(() => listen!.stderr.includes('Press Ctrl-C'), 'webhook listen to start', 20_000);
    expect(listen.stderr.split('\n')[0]).toMatch(/^Listening for webhook events on http:\/\/127\.0\.0\.1:\d+\/webhooks$/);

    const invited = execFileSync(
      process.execPath,
      [BIN, 'invite', '--first-name', 'Ada', '--last-name', 'Okafor', '--email', 'ada.okafor@example.com', '--created-by', INVITER, '--assessments', 'personality,interests,thinking', '--send-via', 'none', '-o', 'json'],
      { env: { ...process.env, ...env, JOBFIT_BASE_URL: stubUrl, JOBFIT_API_KEY: liveKey, NO_COLOR: '1' }, encoding: 'utf8' },
    );
    const inv = JSON.parse(invited) as { id: number; assessment_url: string; invitation_assessments: Array<{ id: number }> };
    expect(inv.invitation_assessments.map((a) => a.id).sort()).toEqual([6, 7, 8]);
    expect(inv.assessment_url).toMatch(/\/take\/[\w-]+$/);

    const { chromium } = await import('playwright-core');
    const browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    });
    try {
      const page = await browser.newPage();
      await page.goto(inv.assessment_url);
      expect(await page.getAttribute('html', 'lang')).toBe('en');
      await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Welcome, Ada');
      await page.getByRole('button', { name: 'Accept the invitation' }).click();
      await page.getByRole('status').waitFor();
      for (const name of ['Personality Traits', 'Career Interests', 'Thinking Skills']) {
        await page.getByRole('link', { name: `Start ${name}` }).click();
        await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe(name);
        const groups = page.getByRole('group');
        const n = await groups.count();
        expect(n).toBeGreaterThanOrEqual(3);
        for (let i = 0; i < n; i++) await groups.nth(i).getByRole('radio').first().check();
        await page.getByRole('button', { name: `Submit ${name}` }).click();
        await expect(page.getByRole('status').textContent()).resolves.toBe(`${name} is complete.`);
      }
      await expect(page.getByRole('heading', { name: 'All done' }).count()).resolves.toBe(1);
      await expect(page.getByRole('link', { name: /Explore careers/ }).count()).resolves.toBe(1);
    } finally {
      await browser.close();
    }

    const lines = () => (existsSync(logFile) ? readFileSync(logFile, 'utf8').split('\n').filter(Boolean) : []);
    await until(() => lines().length >= 6, 'six events in the log', 15_000);
    // Give a late duplicate a chance to show up before counting.
    await new Promise((r) => setTimeout(r, 300));
    const events = lines().map((l) => JSON.parse(l) as { id: string; type: string; data: { object: Record<string, unknown> } });
    const count = (t: string) => events.filter((e) => e.type === t).length;
    expect(events).toHaveLength(6);
    expect(count('invitation.accepted')).toBe(1);
    expect(count('test_taker.created')).toBe(1);
    expect(count('test_taker.assessment_completed')).toBe(3);
    expect(count('career_navigation_profile.created')).toBe(1);
    expect(new Set(events.map((e) => e.id)).size).toBe(6);

    const stub = { url: stubUrl };
    const byType = (t: string) => events.filter((e) => e.type === t).map((e) => e.data.object);
    const invNow = (await api(stub, liveKey, 'GET', `/invitations/${inv.id}`)).json;
    const accepted = byType('invitation.accepted')[0];
    // Fields that move after acceptance (results appear as assessments complete) are compared as they were then.
    const later = ['career_navigation_url', 'job_fit_summary_url', 'career_options_spotlight_url', 'career_navigation_profile_id'];
    const strip = (o: Record<string, unknown>) => Object.fromEntries(Object.entries(o).filter(([k]) => !later.includes(k)));
    expect(Object.keys(accepted).sort()).toEqual(Object.keys(withoutMode(invNow)).sort());
    expect(strip(accepted)).toEqual(strip(withoutMode(invNow)));
    expect(accepted.accepted_at).not.toBeNull();

    const ttId = invNow.test_taker_id as number;
    const tt = (await api<{ person_id: string | null; scorecard_url: string; assigned_assessments: Array<Record<string, unknown>>; career_navigation_profile_id: string }>(stub, liveKey, 'GET', `/test-takers/${ttId}`)).json;
    expect(byType('test_taker.created')[0]).toMatchObject({ object: 'test_taker', id: ttId, invitation_id: inv.id, person_id: tt.person_id, scorecard_url: tt.scorecard_url });

    const completed = byType('test_taker.assessment_completed');
    expect(completed.map((o) => (o.assessment as { id: number }).id).sort()).toEqual([6, 7, 8]);
    for (const o of completed) {
      const a = tt.assigned_assessments.find((x) => x.id === o.id)!;
      expect(o).toMatchObject({ object: 'assigned_assessment', test_taker_id: ttId, invitation_id: inv.id, completed_at: a.completed_at, language: a.language, assessment: a.assessment });
    }
    const profile = (await api(stub, liveKey, 'GET', `/career-navigation-profiles/${tt.career_navigation_profile_id}`)).json;
    expect(byType('career_navigation_profile.created')[0]).toEqual(withoutMode(profile));

    // The listener printed a line per event and, once stopped, put the stub back as it was.
    expect(listen.stdout.trim().split('\n')).toHaveLength(6);
    listen.child.kill('SIGINT');
    expect(await listen.exited).toBe(0);
    expect(listen.stderr).toMatch(/Stopped; 6 events received/);
    const store = await openStore(dataDir);
    try {
      const s = getWebhookSettings(store, 1)!;
      expect(s.webhook_endpoint).toBeNull();
      expect(s.webhooks_enabled).toBe(false);
      expect(s.teams.every((t) => !t.webhooks_enabled)).toBe(true);
    } finally {
      store.close();
    }
  }, 90_000);
});

/**
 * The README, followed word for word by a new user at a terminal: the Quick
 * start, "Then try", and "Connecting to the real service" (login included),
 * with the built binary in a pseudo-terminal. The "real service" is a
 * `jobfit stub serve` in another process. Each step asserts what the person
 * sees on the screen, not only the exit code.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keys, spawnPty } from '../helpers/pty.js';
import { type BuiltCli, buildCli, ROOT } from './built.js';
import { DANA } from '../helpers/seeded.js';

let cli: BuiltCli;
let home: string;
let env: Record<string, string>;
let service: ChildProcess | undefined;

beforeAll(() => {
  cli = buildCli();
  home = mkdtempSync(join(tmpdir(), 'jobfit-walkthrough-'));
  // A fresh machine: nothing configured, HOME and the config directory empty.
  env = { HOME: home, JOBFIT_CONFIG_DIR: join(home, 'config'), NO_COLOR: '1', PATH: cli.path };
}, 120_000);
afterAll(async () => {
  if (service && service.exitCode === null) {
    const exited = new Promise((resolve) => service!.once('exit', resolve));
    service.kill('SIGINT');
    await exited;
  }
  cli?.close();
  if (home) rmSync(home, { recursive: true, force: true });
});

/** `jobfit ARGS` typed at a terminal in the repository; resolves with what the screen showed. */
async function atTerminal(args: string[], opts: { cols?: number } = {}): Promise<{ code: number; screen: string }> {
  const term = spawnPty(cli.command, [...cli.prefix, ...args], { env, cwd: cli.dir, cols: opts.cols ?? 160, rows: 60 });
  try {
    const { code, output } = await term.wait(30_000);
    return { code, screen: output.replace(/\r/g, '') };
  } finally {
    term.kill();
  }
}

/** A shell line with a pipe, at a terminal (`jobfit` is the built binary). */
async function shellLine(line: string): Promise<{ code: number; screen: string }> {
  const jobfit = [cli.command, ...cli.prefix].map((a) => `"${a}"`).join(' ');
  const term = spawnPty('sh', ['-c', line.replaceAll('jobfit ', `${jobfit} `)], { env: { ...env, PATH: cli.path }, cwd: cli.dir, cols: 400 });
  try {
    const { code, output } = await term.wait(30_000);
    return { code, screen: output.replace(/\r/g, '') };
  } finally {
    term.kill();
  }
}

let testTakerId: string;

describe('README: Quick start and "Then try", on the embedded stub', () => {
  it('npx jobfit invite --csv fixtures/csv/sample.csv --created-by … --out results.csv', async () => {
    const r = await atTerminal(['invite', '--csv', 'fixtures/csv/sample.csv', '--created-by', DANA, '--out', 'results.csv']);
    expect(r.code, r.screen).toBe(0);
    expect(r.screen).toContain('Using the embedded local stub');
    // It has no address to name (it answers in this process): none is shown.
    expect(r.screen).toContain('Sending to the embedded local stub, in this process: no real email or SMS goes out.');
    expect(r.screen).not.toContain('127.0.0.1:0');
    expect(r.screen).toMatch(/10 created/);
    const results = readFileSync(join(cli.dir, 'results.csv'), 'utf8').trim().split('\n');
    expect(results).toHaveLength(11);
    expect(results[0]).toMatch(/status/);
    expect(results[0]).toMatch(/invitation_id/);
    expect(results[0]).toMatch(/assessment_url/);
    // "Run it again: every row is reported as exists, never invited twice."
    const again = await atTerminal(['invite', '--csv', 'fixtures/csv/sample.csv', '--created-by', DANA, '--out', 'results.csv']);
    expect(again.code, again.screen).toBe(0);
    expect(again.screen).toMatch(/0 created, 10 exists/);
  });

  it('npx jobfit teams: a table on a terminal, with the mode line', async () => {
    const r = await atTerminal(['teams']);
    expect(r.code, r.screen).toBe(0);
    expect(r.screen).toMatch(/^\[local stub, live mode\] account Northwind Talent Group \(\d+\)/m);
    expect(r.screen).toMatch(/ID\s+NAME\s+USERS\s+INVITATIONS\s+TEST TAKERS/);
    expect(r.screen).toContain('Head Office Recruiting');
    expect(r.screen).not.toContain('"object"');
  });

  it('npx jobfit invitations list --all -o ndjson | head -3', async () => {
    const r = await shellLine('jobfit invitations list --all -o ndjson | head -3');
    expect(r.code, r.screen).toBe(0);
    // The closing count goes to the terminal (stderr) while head's output comes through the pipe:
    // when jobfit has written every row before head prints (the pipe holds them all), it can land
    // inside one of head's lines; when head closes the pipe first, jobfit stops without it.
    const summary = /\d[\d,]* invitations \(total_count \d+\): \d[\d,]* written, 0 failed, in [\d.]+s \([\d,]+\/s\)\.\n/;
    const lines = r.screen.replace(summary, '').split('\n').filter((l) => l.startsWith('{'));
    expect(lines).toHaveLength(3);
    for (const l of lines) expect(JSON.parse(l), r.screen).toHaveProperty('email');
    expect(r.screen).not.toMatch(/EPIPE|Error/);
  });

  it('npx jobfit stub accept 100200: prints the new test taker id', async () => {
    const r = await atTerminal(['stub', 'accept', '100200']);
    expect(r.code, r.screen).toBe(0);
    const m = /Invitation 100200 accepted: test taker (\d+)\./.exec(r.screen);
    expect(m, r.screen).not.toBeNull();
    testTakerId = m![1];
  });

  it('npx jobfit stub complete <TEST_TAKER_ID> --assessment all', async () => {
    const r = await atTerminal(['stub', 'complete', testTakerId, '--assessment', 'all']);
    expect(r.code, r.screen).toBe(0);
    expect(r.screen).toContain(testTakerId);
  });

  it('npx jobfit scorecard <TEST_TAKER_ID> --sp sales-rep', async () => {
    const r = await atTerminal(['scorecard', testTakerId, '--sp', 'sales-rep']);
    expect(r.code, r.screen).toBe(0);
    expect(r.screen).toMatch(/TEST TAKER\s+FIRST\s+LAST\s+EMAIL\s+STARS\s+FIT %/);
    expect(r.screen).toMatch(new RegExp(`^\\s*${testTakerId}\\s+Person1\\s+Sample1\\s`, 'm'));
  });

  it('npx jobfit job-fit <TEST_TAKER_ID>: the report, rendered for a person', async () => {
    const r = await atTerminal(['job-fit', testTakerId]);
    expect(r.code, r.screen).toBe(0);
    expect(r.screen).not.toContain('"object"');
    expect(r.screen).toMatch(new RegExp(`test taker ${testTakerId} · invitation 100200`));
    expect(r.screen).toContain('Top job families');
    expect(r.screen).toMatch(/★/);
  });

  it('npx jobfit stub outbox: the emails the service would have sent', async () => {
    const r = await atTerminal(['stub', 'outbox']);
    expect(r.code, r.screen).toBe(0);
    expect(r.screen).toMatch(/SUBJECT/);
    expect(r.screen).toMatch(/invitation/i);
    expect(r.screen).toContain('@');
  });
});

describe('README: Connecting to the real service (a stub in another process)', () => {
  let url: string;
  let live: string;
  let test: string;

  beforeAll(async () => {
    service = spawn(cli.command, [...cli.prefix, 'stub', 'serve', '--port', '0', '--data', join(home, 'service')], { env: { ...env, PATH: cli.path }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    service.stdout!.setEncoding('utf8').on('data', (d: string) => (out += d));
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`stub serve did not start: ${out}`)), 30_000);
      service!.stdout!.on('data', () => {
        if (/test key: \S+/.test(out)) {
          clearTimeout(timer);
          resolve();
        }
      });
    });
    url = /Stub listening on (\S+)/.exec(out)![1];
    live = /live key: (\S+)/.exec(out)![1];
    test = /test key: (\S+)/.exec(out)![1];
  }, 60_000);

  it('jobfit login: asks, checks the base URL, asks again when it is wrong, verifies both keys', async () => {
    const t2 = spawnPty(cli.command, [...cli.prefix, 'login'], { env, cwd: cli.dir, cols: 160 });
    try {
      await t2.expect('Profile name');
      t2.send(keys.enter);
      // The stub served on this machine is offered as the default; typed instead: the origin alone.
      await t2.expect(`Base URL of the API (including /v2) (${url})`);
      const origin = url.replace(/\/v2$/, '');
      t2.line(origin);
      await t2.expect(`✗ ${origin} is not the root of the v2 API: its /healthcheck answered 404; ${url} is.`);
      await t2.expect(`Base URL of the API (including /v2) (${url})`);
      t2.send(keys.enter);
      await t2.expect('Live key');
      t2.line(live);
      await t2.expect(/✓ live key sk_live_…\w{4}: account Northwind Talent Group/);
      await t2.expect('Test key');
      t2.line(test);
      await t2.expect('✓ test key');
      await t2.expect('Mode to use');
      t2.send(keys.enter);
      const { code, output } = await t2.wait(20_000);
      expect(code, output).toBe(0);
      expect(output).toContain('Saved profile "default"');
      expect(t2.raw()).not.toContain(live);
      expect(t2.raw()).not.toContain(test);
    } finally {
      t2.kill();
    }
  }, 60_000);

  it('jobfit whoami: account, mode, base URL, masked key and where it came from', async () => {
    const r = await atTerminal(['whoami']);
    expect(r.code, r.screen).toBe(0);
    expect(r.screen).toContain('Northwind Talent Group');
    expect(r.screen).toContain(url);
    expect(r.screen).toMatch(/sk_live_…\w{4}/);
    // The key is where login put it: the OS keyring when one answered (Windows: the
    // Credential Manager, there under Wine too), its entry named after this config folder
    // (JOBFIT_CONFIG_DIR), else the owner-only config file.
    expect(r.screen).toMatch(/profile "default" in (.*config\.json|the OS keyring \(service jobfit, account default\/live@.*config\))/);
    expect(r.screen).not.toContain(live);
    expect(r.screen).not.toContain('embedded local stub');
  });

  it('jobfit --test invitations list', async () => {
    const r = await atTerminal(['--test', 'invitations', 'list']);
    expect(r.code, r.screen).toBe(0);
    expect(r.screen).toMatch(new RegExp(`^\\[test mode\\] profile default · ${url.replace(/[.]/g, '\\.')} · sk_test_…\\w{4}$`, 'm'));
    expect(r.screen).toMatch(/EMAIL/);
  });

  it('jobfit --live invite --csv people.csv --out people-results.csv', async () => {
    copyFileSync(join(ROOT, 'fixtures/csv/sample.csv'), join(cli.dir, 'people.csv'));
    // The inviter from the profile's invite defaults, as the section recommends.
    const set = await atTerminal(['config', 'set', 'invite_defaults.created_by', DANA]);
    expect(set.code, set.screen).toBe(0);
    const r = await atTerminal(['--live', 'invite', '--csv', 'people.csv', '--out', 'people-results.csv']);
    expect(r.code, r.screen).toBe(0);
    expect(r.screen).toMatch(/^\[live mode\] profile default/m);
    // A stub on this machine: nothing real goes out, so it does not ask; the real service would.
    expect(r.screen).toContain('no real email or SMS goes out');
    expect(r.screen).toMatch(/10 created/);
  });
});

/**
 * Every documented path, twice in a row on one config folder, from a folder
 * whose path has a space and non-ASCII letters (issue 40, item 2): the README's
 * quick start and "Then try", bulk invite from a CSV and a workbook with
 * --resume and --retry-failed, every export format with --out, reports,
 * sync to SQLite, then `stub serve` with login, whoami, an invite to it and
 * `webhook listen` with an event, and logout. Each command's exit code is
 * printed (the CI log's Windows section shows them).
 *
 * Under Wine (.ci/windows: JOBFIT_E2E_NODE=wine-node, JOBFIT_E2E_WINE=1) jobfit
 * is Windows node.exe and gets Windows paths (`Z:\…\Zoë Müller\…`); on Linux the
 * same walk runs with POSIX paths.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { until } from '../helpers/until.js';
import { type BuiltCli, buildCli, pathForJobfit, type RunResult } from './built.js';

const INVITER = 'dana.whitfield@northwind-talent.example';
const ZOE = 'Zoë,Müller,zoe.mueller@example.com,Retail Stores,"Personality, Interests"';

let cli: BuiltCli;
let dir: string;
let env: Record<string, string>;
const W = (p: string) => pathForJobfit(p);
const codes: string[] = [];

beforeAll(async () => {
  cli = buildCli();
  dir = join(cli.dir, 'Zoë Müller', 'Kandidaten Ordner');
  mkdirSync(dir, { recursive: true });
  env = { JOBFIT_CONFIG_DIR: W(join(dir, 'config')) };
  writeFileSync(join(dir, 'people.csv'), `${readFileSync(join(cli.dir, 'fixtures/csv/sample.csv'), 'utf8').trimEnd()}\n${ZOE}\n`);
  const wb = new ExcelJS.Workbook();
  const sheet = wb.addWorksheet('People');
  sheet.addRow(['First Name', 'Last Name', 'Email', 'Team', 'Assessments']);
  sheet.addRow(['Zoë', 'Müller', 'zoe.mueller@kandidaten.example', 'Retail Stores', 'Personality']);
  sheet.addRow(['Jürgen', 'Weiß', 'juergen.weiss@kandidaten.example', 'Retail Stores', 'Personality']);
  await wb.xlsx.writeFile(join(dir, 'people.xlsx'));
}, 120_000);
afterAll(() => {
  console.log(`The walk, twice on one config folder (${W(dir)}):\n${codes.join('\n')}`);
  cli?.close();
});

/** Runs jobfit in the folder; the exit code goes to the log and must be one of `ok`. */
async function jobfit(round: number, args: string[], opts: { input?: string; ok?: number[]; env?: Record<string, string> } = {}): Promise<RunResult> {
  const t0 = Date.now();
  const r = await cli.runAsync(args, { env: { ...env, ...opts.env }, input: opts.input, cwd: dir });
  codes.push(`  round ${round}  exit ${r.code}  ${((Date.now() - t0) / 1000).toFixed(1).padStart(5)}s  jobfit ${args.join(' ')}`);
  expect(opts.ok ?? [0], `jobfit ${args.join(' ')}\n${r.stderr}`).toContain(r.code);
  return r;
}

/**
 * A single invite of a person of this round (one who accepts: a CSV row of hers
 * would be refused on the next run, "Team already has a test taker", by design,
 * docs/bulk-invite.md), and her invitation id.
 */
const inviteOne = async (round: number, email: string) => {
  const r = await jobfit(round, ['invite', '--first-name', 'Zoë', '--last-name', 'Müller', '--email', email, '--created-by', INVITER, '--assessments', 'personality,interests', '--send-via', 'none', '-o', 'json']);
  return (JSON.parse(r.stdout) as { id: number }).id;
};

/** A long-running jobfit (stub serve, webhook listen), its output collected. */
function start(args: string[]): { child: ChildProcess; out: () => string; err: () => string; exited: Promise<number> } {
  const child = spawn(cli.command, [...cli.prefix, ...args], { env: { PATH: cli.path, HOME: join(cli.dir, 'home'), NO_COLOR: '1', ...env }, cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout!.setEncoding('utf8').on('data', (d: string) => (out += d));
  child.stderr!.setEncoding('utf8').on('data', (d: string) => (err += d));
  const exited = new Promise<number>((resolve) => child.on('close', (code, signal) => resolve(code ?? (signal === 'SIGINT' ? 130 : -1))));
  return { child, out: () => out, err: () => err, exited };
}

async function offline(round: number): Promise<void> {
  await jobfit(round, ['teams']);
  const invite = ['invite', '--csv', 'people.csv', '--created-by', INVITER, '--out', 'results.csv', '--yes'];
  const first = await jobfit(round, invite);
  expect(first.stderr).toContain(round === 1 ? '11 rows: 11 created, 0 exists' : '11 rows: 0 created, 11 exists');
  await jobfit(round, [...invite, '--resume']);
  await jobfit(round, [...invite, '--retry-failed']);
  const results = readFileSync(join(dir, 'results.csv'), 'utf8');
  expect(results).toContain('Zoë,Müller,zoe.mueller@example.com');
  const book = ['invite', '--file', 'people.xlsx', '--created-by', INVITER, '--out', W(join(dir, 'people.results.xlsx')), '--yes'];
  await jobfit(round, book);
  await jobfit(round, [...book, '--resume']);
  for (const format of ['csv', 'json', 'ndjson', 'xlsx']) await jobfit(round, ['invitations', 'list', '--all', '-o', format, '--out', `invitations.${format}`]);
  // A CSV for a person opens in Excel: UTF-8 with a byte order mark, her name intact.
  const csv = readFileSync(join(dir, 'invitations.csv'));
  expect([...csv.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  expect(csv.toString('utf8')).toContain(',Zoë,Müller,zoe.mueller@example.com,');
  const csvOut = await jobfit(round, ['invitations', 'list', '--email', 'zoe.mueller@example.com', '-o', 'csv']);
  expect(csvOut.stdout.startsWith('id,'), 'standard output stays exact: no byte order mark').toBe(true);
  const id = await inviteOne(round, `zoe.mueller.${round}@kandidaten.example`);
  const accepted = await jobfit(round, ['stub', 'accept', String(id)]);
  const tt = /test taker (\d+)/.exec(accepted.stdout + accepted.stderr)![1];
  await jobfit(round, ['stub', 'complete', tt, '--assessment', 'all']);
  await jobfit(round, ['scorecard', tt, '--sp', 'sales-rep']);
  await jobfit(round, ['job-fit', tt]);
  await jobfit(round, ['job-fit', tt, '-o', 'html', '--out', W(join(dir, 'job-fit.html'))]);
  expect(readFileSync(join(dir, 'job-fit.html'), 'utf8')).toContain('Zoë Müller');
  await jobfit(round, ['scorecard', '--all', '--sp', 'sales-rep', '-o', 'csv', '--out', 'scorecards.csv']);
  await jobfit(round, ['job-fit', '--all', '-o', 'csv', '--out', 'job-fit.csv']);
  await jobfit(round, ['report', '--sp', 'sales-rep', '-o', 'html', '--out', 'report.html']);
  await jobfit(round, ['report', '--sp', 'sales-rep', '-o', 'xlsx', '--out', 'report.xlsx']);
  await jobfit(round, ['sync', '--db', W(join(dir, 'results.sqlite')), '--sp', 'sales-rep']);
  await jobfit(round, ['stub', 'outbox']);
}

async function served(round: number): Promise<void> {
  const data = W(join(dir, 'service'));
  const serve = start(['stub', 'serve', '--port', '0', '--data', data]);
  let loggedIn = false;
  try {
    await until(() => /test key: \S+/.test(serve.out()), `stub serve to start: ${serve.err()}`, 60_000);
    const url = /Stub listening on (\S+)/.exec(serve.out())![1];
    const live = /live key: (\S+)/.exec(serve.out())![1];
    // Round 1 keeps the key in the OS keyring (Windows: the Credential Manager), round 2 in the file.
    await jobfit(round, ['login', '--base-url', url, '--default-mode', 'live', ...(round === 2 ? ['--insecure-storage'] : [])], { input: live });
    loggedIn = true;
    const who = await jobfit(round, ['whoami', '-o', 'json']);
    expect(JSON.parse(who.stdout)).toMatchObject({ base_url: url, key: expect.stringMatching(/^sk_live_…\w{4}$/) });
    expect(who.stdout).not.toContain(live);
    const sent = await jobfit(round, ['--live', 'invite', '--csv', 'people.csv', '--created-by', INVITER, '--out', 'people-results.csv', '--yes']);
    expect(sent.stderr).toContain(round === 1 ? '11 created' : '11 exists');
    const listen = start(['webhook', 'listen', '--log', 'events.ndjson']);
    try {
      await until(() => listen.err().includes('Press Ctrl-C'), `webhook listen to start: ${listen.err()}`, 60_000);
      const id = await inviteOne(round, `zoe.mueller.served.${round}@kandidaten.example`);
      await jobfit(round, ['stub', 'accept', String(id), '--data', data]);
      const log = join(dir, 'events.ndjson');
      await until(() => existsSync(log) && readFileSync(log, 'utf8').includes(`"invitation.accepted"`) && readFileSync(log, 'utf8').includes(`${id}`), `the event in the log: ${listen.err()}`, 30_000);
    } finally {
      listen.child.kill('SIGINT');
      const code = await listen.exited;
      codes.push(`  round ${round}  exit ${code}          jobfit webhook listen --log events.ndjson (Ctrl-C)`);
      expect([0, 130]).toContain(code);
    }
  } finally {
    // Logged out even when a step failed: the next round starts offline again.
    if (loggedIn) await jobfit(round, ['logout']);
    serve.child.kill('SIGINT');
    const code = await serve.exited;
    codes.push(`  round ${round}  exit ${code}          jobfit stub serve --port 0 --data … (Ctrl-C)`);
  }
}

describe('every documented path, twice on one config folder, in "Zoë Müller/Kandidaten Ordner"', () => {
  for (const round of [1, 2]) {
    it(`round ${round}: offline, on the embedded stub`, () => offline(round), 600_000);
    it(`round ${round}: a served stub, login, whoami, webhook listen, logout`, () => served(round), 600_000);
  }
});

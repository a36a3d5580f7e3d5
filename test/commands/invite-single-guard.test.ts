/**
 * Issue 44, item 1: a single invite asks first. A live key against a server
 * that is not our stub: on a pseudo-terminal the invitation is shown (person,
 * team, assessments, template, channels, mode, account, base URL) and asked
 * about; "n" sends nothing and exits 5 (declined), "y" sends it. Off a
 * terminal it needs --yes (exit 2, nothing sent, without). `--dry-run` works
 * for one invitation: validated against the account, nothing sent.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BuiltCli, buildCli } from '../e2e/built.js';
import { FOREIGN_INVITER, type ForeignServer, FOREIGN_KEY as KEY, startFaultServer } from '../helpers/fault-server.js';
import { spawnPty } from '../helpers/pty.js';

let cli: BuiltCli;
let dir: string;
let foreign: ForeignServer;

beforeAll(async () => {
  cli = buildCli();
  dir = mkdtempSync(join(tmpdir(), 'jobfit-single-guard-'));
  foreign = await startFaultServer({ world: 'foreign' });
});
afterAll(async () => {
  await foreign?.close();
  cli?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const env = () => ({ JOBFIT_BASE_URL: foreign.url, JOBFIT_API_KEY: KEY, JOBFIT_CONFIG_DIR: join(dir, 'config'), HOME: join(dir, 'home'), NO_COLOR: '1' });
const person = (email: string) => ['invite', '--first-name', 'Ana', '--last-name', 'Diaz', '--email', email, '--created-by', FOREIGN_INVITER, '--team', '1', '--assessments', '6', '--template', '30'];
/** The invitations the server holds: counted by the server, not by us. */
const held = () => foreign.invitations.length;

describe('a live single invite on a terminal', () => {
  async function atTerminal(email: string, answer: 'n' | 'y') {
    const before = held();
    const term = spawnPty(cli.command, [...cli.prefix, ...person(email)], { env: env(), cols: 120 });
    try {
      await term.expect('Send this live invitation now?', 20_000);
      term.line(answer);
      const r = await term.wait(20_000);
      return { ...r, sent: held() - before };
    } finally {
      term.kill();
    }
  }

  it('shows what will be sent and asks; "n" sends nothing and exits 5', async () => {
    const r = await atTerminal('ana.no@example.com', 'n');
    expect(r.code, r.output).toBe(5);
    expect(r.sent).toBe(0);
    expect(r.output).toContain('LIVE: about to invite 1 participant for real.');
    expect(r.output).toContain('person:      Ana Diaz <ana.no@example.com>');
    expect(r.output).toContain('team:        Team A (1)');
    expect(r.output).toContain('assessments: Personality Traits (6)');
    expect(r.output).toContain('template:    Welcome (30)');
    expect(r.output).toContain('delivery:    email');
    expect(r.output).toContain('mode:        live');
    expect(r.output).toContain('account:     Acme (1)');
    expect(r.output).toContain(`base URL:    ${foreign.url}`);
    expect(r.output).toContain('Nothing was sent.');
  }, 60_000);

  it('"y" sends it', async () => {
    const r = await atTerminal('ana.yes@example.com', 'y');
    expect(r.code, r.output).toBe(0);
    expect(r.sent).toBe(1);
    expect(foreign.invitations.at(-1)?.email).toBe('ana.yes@example.com');
  }, 60_000);
});

describe('a live single invite off a terminal', () => {
  it('without --yes: exit 2, the server holds no more invitations than before', async () => {
    const before = held();
    const r = await cli.runAsync(person('ana.script@example.com'), { env: env() });
    expect(r.code, r.stderr).toBe(2);
    expect(held()).toBe(before);
    expect(r.stderr).toContain('A live invite without a terminal needs --yes');
    expect(r.stdout).toBe('');
  });

  it('with --yes: sent, and the summary still says LIVE on stderr', async () => {
    const before = held();
    const r = await cli.runAsync([...person('ana.yes2@example.com'), '--yes'], { env: env() });
    expect(r.code, r.stderr).toBe(0);
    expect(held()).toBe(before + 1);
    expect(r.stderr).toContain('LIVE: about to invite 1 participant for real.');
  });
});

describe('invite --dry-run for one invitation', () => {
  it('validates against the account and sends nothing (live key, no --yes needed)', async () => {
    const before = held();
    const posts = foreign.seen.filter((s) => s.method === 'POST').length;
    const r = await cli.runAsync([...person('ana.dry@example.com'), '--dry-run'], { env: env() });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('Dry run: the invitation is valid; it would be sent as:');
    expect(r.stdout).toContain('team:        Team A (1)');
    expect(r.stderr).toContain('Nothing was sent');
    expect(held()).toBe(before);
    expect(foreign.seen.filter((s) => s.method === 'POST').length).toBe(posts);
  });

  it('-o json: the request body it would send', async () => {
    const r = await cli.runAsync([...person('ana.dry2@example.com'), '--dry-run', '-o', 'json'], { env: env() });
    expect(r.code, r.stderr).toBe(0);
    const doc = JSON.parse(r.stdout);
    expect(doc).toMatchObject({ dry_run: true, valid: true, live: true, request: { method: 'POST', path: '/invitations' } });
    expect(doc.request.body).toMatchObject({ email: 'ana.dry2@example.com', team_id: 1, email_template_id: 30 });
  });

  it('an inviter the account does not have: exit 2, nothing sent', async () => {
    const before = held();
    const args = person('ana.dry3@example.com');
    args[args.indexOf(FOREIGN_INVITER)] = 'nobody@acme.example';
    const r = await cli.runAsync([...args, '--dry-run'], { env: env() });
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toMatch(/--created-by/);
    expect(held()).toBe(before);
  });
});

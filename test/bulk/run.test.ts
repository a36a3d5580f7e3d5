/**
 * The run function with a fake context and an in-memory service: the live
 * guard, Ctrl-C (finish in flight, write down, resume), and slowing down on 429.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MSG } from '../../src/api/messages.js';
import { BadRequestError, RateLimitError } from '../../src/client/errors.js';
import { finishBulk, runBulkInvite, bulkSummaryLine } from '../../src/bulk/run.js';
import type { BulkDeps, BulkSender } from '../../src/bulk/types.js';
import { ExitCode, JobfitError } from '../../src/core/errors.js';
import { createProgress } from '../../src/format/progress.js';
import { memoryIO } from '../helpers/io.js';
import { INVITER, writePeople } from './helpers/data.js';

const team = { id: 12, display_name: 'Retail Stores' };
const user = {
  object: 'user' as const,
  id: 1,
  first_name: 'Dana',
  last_name: 'W',
  email: INVITER,
  default_team: team,
  default_assessments: [{ id: 6, display_name: 'Personality Traits', short_name: 'Personality' }],
  default_invitation_email_template: { id: 301, display_name: 'Standard' },
  default_congrats_email_template: null,
  default_scheduling_link: null,
};

/** An in-memory service: stores by email, refuses duplicates like the real one. */
type Stored = { id: number; assessment_url: string; first_name: string; last_name: string; team: { id: number; display_name: string } };

class FakeService implements BulkSender {
  byEmail = new Map<string, Stored>();
  posts = 0;
  inFlight = 0;
  maxInFlight = 0;
  rateLimitNext = 0;
  onPost?: () => void;
  private seq = 1000;
  list = <T>(data: T[]) => Promise.resolve({ mode: 'live' as const, object: 'list' as const, total_count: data.length, has_more: false, data });
  getAccount = () => Promise.resolve({ id: 1, display_name: 'Northwind' });
  listUsers = () => this.list([user]) as never;
  listTeams = () =>
    this.list(
      [team, { id: 11, display_name: 'Head Office Recruiting' }, { id: 13, display_name: 'Distribution Centres' }, { id: 14, display_name: 'Graduate Programme' }].map((t) => ({
        object: 'team_list_item',
        ...t,
        users_count: 1,
        invitations_count: 0,
        test_takers_count: 0,
      })),
    ) as never;
  listEmailTemplates = () => this.list([{ object: 'email_template', id: 301, display_name: 'Standard', template_type: 'invitation', teams: [team] }]) as never;
  listAssessments = () => this.list([{ object: 'assessment', id: 6, display_name: 'Personality Traits', short_name: 'Personality' }]) as never;
  listInvitations = async (q: { email?: string }) => {
    const hit = this.byEmail.get(String(q.email).toLowerCase());
    return { data: hit ? [{ ...hit, email: String(q.email) }] : [] } as never;
  };
  async createInvitationDetailed(body: never) {
    const b = body as { email: string; first_name: string; last_name: string; team_id?: number };
    this.posts++;
    this.onPost?.();
    this.inFlight++;
    this.maxInFlight = Math.max(this.maxInFlight, this.inFlight);
    try {
      await new Promise((r) => setTimeout(r, 2));
      if (this.rateLimitNext > 0) {
        this.rateLimitNext--;
        throw new RateLimitError({ status: 429, method: 'POST', path: '/invitations' }, 0);
      }
      const key = b.email.toLowerCase();
      const teamId = b.team_id ?? team.id;
      const had = this.byEmail.get(key);
      if (had) {
        const msg = had.team.id === teamId ? MSG.duplicateInvitationSameTeam(b.email) : MSG.duplicateOtherTeam(b.email);
        throw new BadRequestError({ status: 400, method: 'POST', path: '/invitations', apiMessage: msg });
      }
      const inv = { id: this.seq++, assessment_url: `https://svc.example/take/${this.seq}`, first_name: b.first_name, last_name: b.last_name, team: { id: teamId, display_name: `team ${teamId}` } };
      this.byEmail.set(key, inv);
      return { invitation: inv, recovered: false };
    } finally {
      this.inFlight--;
    }
  }
}

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'jobfit-bulk-run-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function deps(api: FakeService, o: { tty?: boolean; local?: boolean; signal?: AbortSignal; confirm?: boolean } = {}) {
  const m = memoryIO({ tty: o.tty ?? false, signal: o.signal });
  let asked = 0;
  const d: BulkDeps = {
    ctx: { io: m.io, globals: { color: false, quiet: false, verbose: false }, info: (s) => m.io.stderr.write(`${s}\n`), warn: (s) => m.io.stderr.write(`${s}\n`) },
    api,
    target: { baseUrl: o.local ? 'http://127.0.0.1:1/v2' : 'https://api.example.com/v2', mode: 'live', local: o.local ?? false },
    confirm: async () => {
      asked++;
      return o.confirm ?? false;
    },
  };
  return { d, m, asked: () => asked };
}

describe('live mode guard', () => {
  it('without a terminal, live sending needs --yes (exit 2, nothing sent)', async () => {
    const api = new FakeService();
    writePeople(join(dir, 'p.csv'), 5, 'guard');
    const { d, m } = deps(api);
    const err = await runBulkInvite({ csv: join(dir, 'p.csv'), createdBy: INVITER }, d).catch((e) => e);
    expect(err).toBeInstanceOf(JobfitError);
    expect(err.exitCode).toBe(ExitCode.USAGE);
    expect(err.message).toContain('needs --yes');
    expect(api.posts).toBe(0);
    // What would have been sent is shown first.
    expect(m.stderr()).toContain('LIVE: about to invite 5 participants for real.');
    expect(m.stderr()).toContain('account:  Northwind (1)');
    expect(m.stderr()).toMatch(/team\(s\):.*Distribution Centres \(2\).*Retail Stores \(1\)/);
    expect(m.stderr()).toContain('delivery: 5 by email');
  });

  it('on a terminal it asks; "no" sends nothing', async () => {
    const api = new FakeService();
    writePeople(join(dir, 'p.csv'), 3, 'ask');
    const { d, asked } = deps(api, { tty: true, confirm: false });
    const err = await runBulkInvite({ csv: join(dir, 'p.csv'), createdBy: INVITER }, d).catch((e) => e);
    expect(asked()).toBe(1);
    expect(err.message).toBe('Nothing was sent.');
    // "The user said no" has its own exit code (5), not a service failure's 1.
    expect(err.exitCode).toBe(5);
    expect(api.posts).toBe(0);
  });

  it('--yes sends; a loopback server is never asked about and says no real email goes out', async () => {
    const api = new FakeService();
    writePeople(join(dir, 'p.csv'), 3, 'yes');
    const s = await runBulkInvite({ csv: join(dir, 'p.csv'), createdBy: INVITER, yes: true }, deps(api).d);
    expect(s.created).toBe(3);
    const local = deps(new FakeService(), { tty: true, local: true });
    await runBulkInvite({ csv: join(dir, 'p.csv'), createdBy: INVITER, out: join(dir, 'l.csv') }, local.d);
    expect(local.asked()).toBe(0);
    expect(local.m.stderr()).toContain('no real email or SMS goes out');
  });
});

describe('Ctrl-C', () => {
  it('stops taking rows, finishes those in flight, writes them, prints the resume command; --resume completes', async () => {
    const api = new FakeService();
    const csv = join(dir, 'p.csv');
    const out = join(dir, 'r.csv');
    writePeople(csv, 500, 'ctrlc');
    const ac = new AbortController();
    api.onPost = () => {
      if (api.posts === 100) ac.abort();
    };
    const opts = { csv, out, createdBy: INVITER, concurrency: 8 };
    const first = deps(api, { local: true, signal: ac.signal });
    const s1 = await runBulkInvite(opts, first.d);
    expect(s1.interrupted).toBe(true);
    // The rows already sent were all finished (none left hanging), and no new one started after Ctrl-C.
    expect(api.posts).toBeLessThanOrEqual(100);
    expect(s1.created).toBe(api.posts);
    // Every row is in the results: those sent, and the rest as not sent.
    const lines = readFileSync(out, 'utf8').trimEnd().split('\n');
    expect(lines).toHaveLength(501);
    expect(lines.filter((l) => l.includes(',created,'))).toHaveLength(api.posts);
    expect(lines.filter((l) => l.includes(',not_sent,'))).toHaveLength(500 - api.posts);
    expect(s1.notSent).toBe(500 - api.posts);
    let code = 0;
    try {
      finishBulk(s1, opts, first.d.ctx);
    } catch (e) {
      code = (e as JobfitError).exitCode;
    }
    expect(code).toBe(130);
    expect(first.m.stderr()).toContain(`jobfit invite --csv ${csv} --out ${out} --resume --created-by ${INVITER}`);

    const postsBefore = api.posts;
    const s2 = await runBulkInvite({ ...opts, resume: true }, deps(api, { local: true }).d);
    expect(s2.created).toBe(500);
    expect(s2.resumed).toBe(postsBefore);
    expect(api.posts).toBe(500); // not one row sent twice
    expect(readFileSync(out, 'utf8').trimEnd().split('\n')).toHaveLength(501);
  });
});

describe('sending', () => {
  it('keeps to --concurrency and slows down after a 429 the client could not absorb', async () => {
    const api = new FakeService();
    writePeople(join(dir, 'p.csv'), 200, 'conc');
    api.rateLimitNext = 3;
    const s = await runBulkInvite({ csv: join(dir, 'p.csv'), createdBy: INVITER, concurrency: 5 }, deps(api, { local: true }).d);
    expect(s.created).toBe(200);
    expect(api.maxInFlight).toBeLessThanOrEqual(5);
    expect(api.byEmail.size).toBe(200);
  });

  it('a row already in the account (the same person, the same team) is "exists" with the existing id', async () => {
    const api = new FakeService();
    const t = { id: 11, display_name: 'Head Office Recruiting' };
    api.byEmail.set('p2.exists@example.com', { id: 7, assessment_url: 'https://svc.example/take/7', first_name: 'First2', last_name: 'Last2', team: t });
    writePeople(join(dir, 'p.csv'), 3, 'exists');
    const out = join(dir, 'x.csv');
    const s = await runBulkInvite({ csv: join(dir, 'p.csv'), out, createdBy: INVITER }, deps(api, { local: true }).d);
    expect(s).toMatchObject({ created: 2, exists: 1, failed: 0 });
    expect(readFileSync(out, 'utf8').split('\n')[2]).toContain(',2,exists,7,https://svc.example/take/7,');
  });
});

describe('the sending pass', () => {
  it('gives the same results whether it reuses the validation pass (small files) or reads the file again (large ones)', async () => {
    const csv = join(dir, 'same.csv');
    writePeople(csv, 60, 'same');
    const results = async (keepRows?: number) => {
      const out = join(dir, `same-${keepRows ?? 'default'}.csv`);
      const api = new FakeService();
      const s = await runBulkInvite({ csv, out, createdBy: INVITER, concurrency: 4, keepRows }, deps(api, { local: true }).d);
      expect(s.created).toBe(60);
      expect(api.posts).toBe(60);
      return readFileSync(out, 'utf8');
    };
    const reused = await results();
    const reread = await results(0);
    const partly = await results(10);
    expect(reread).toBe(reused);
    expect(partly).toBe(reused);
    expect(reused.trimEnd().split('\n')).toHaveLength(61);
  });
});

describe('after the run', () => {
  it('--retry-failed sends only the rows that failed (from the journal), and the summary counts what was sent', async () => {
    const api = new FakeService();
    const csv = join(dir, 'p.csv');
    const out = join(dir, 'r.csv');
    writePeople(csv, 50, 'retry');
    // Rows 7 and 21 are refused the first time (a 400 that is not a duplicate).
    const refuse = new Set(['p7.retry@example.com', 'p21.retry@example.com']);
    const real = api.createInvitationDetailed.bind(api);
    api.createInvitationDetailed = async (body: never) => {
      const email = (body as { email: string }).email;
      if (refuse.delete(email)) {
        api.posts++;
        throw new BadRequestError({ status: 400, method: 'POST', path: '/invitations', apiMessage: 'Temporarily refused' });
      }
      return real(body);
    };
    const opts = { csv, out, createdBy: INVITER };
    const s1 = await runBulkInvite(opts, deps(api, { local: true }).d);
    expect(s1).toMatchObject({ created: 48, failed: 2, sent: 50, notSent: 0 });
    const first = deps(api, { local: true });
    let hint = '';
    try {
      finishBulk(s1, opts, first.d.ctx);
    } catch (e) {
      hint = (e as JobfitError).hint ?? '';
    }
    expect(hint).toContain(`jobfit invite --csv ${csv} --out ${out} --retry-failed --created-by ${INVITER}`);
    const posts = api.posts;
    const s2 = await runBulkInvite({ ...opts, retryFailed: true }, deps(api, { local: true }).d);
    expect(api.posts - posts).toBe(2);
    expect(s2).toMatchObject({ created: 50, failed: 0, sent: 2, resumed: 48 });
    expect(bulkSummaryLine(s2)).toMatch(/^50 rows: 50 created, 0 exists, 0 invalid, 0 failed, 0 not sent \(48 from the earlier run\) in [\d.]+s \(2 sent, [\d,]+ rows\/s\)\.$/);
    const lines = readFileSync(out, 'utf8').trimEnd().split('\n');
    expect(lines).toHaveLength(51);
    expect(lines.every((l, i) => i === 0 || l.includes(',created,'))).toBe(true);
  });

  it('after Ctrl-C the summary says how many rows were not sent', async () => {
    const api = new FakeService();
    const csv = join(dir, 'p.csv');
    writePeople(csv, 300, 'left');
    const ac = new AbortController();
    api.onPost = () => {
      if (api.posts === 40) ac.abort();
    };
    const s = await runBulkInvite({ csv, out: join(dir, 'l.csv'), createdBy: INVITER }, deps(api, { local: true, signal: ac.signal }).d);
    expect(s.interrupted).toBe(true);
    expect(s.sent).toBe(api.posts);
    expect(bulkSummaryLine(s)).toContain(`${api.posts} created, 0 exists, 0 invalid, 0 failed, ${300 - api.posts} not sent`);
  });

  it('a person on another team of the account is a failed row naming the invitation in the way', async () => {
    const api = new FakeService();
    api.byEmail.set('p1.conflict@example.com', { id: 99, assessment_url: 'https://svc.example/take/99', first_name: 'First1', last_name: 'Last1', team: { id: 14, display_name: 'Graduate Programme' } });
    writePeople(join(dir, 'p.csv'), 2, 'conflict');
    const out = join(dir, 'c.csv');
    const s = await runBulkInvite({ csv: join(dir, 'p.csv'), out, createdBy: INVITER }, deps(api, { local: true }).d);
    expect(s).toMatchObject({ created: 1, exists: 0, failed: 1 });
    expect(readFileSync(out, 'utf8').split('\n')[1]).toContain(',1,failed,,,"Another team in this account already has an invitation with email p1.conflict@example.com: invitation 99 on team Graduate Programme (14)');
  });

  it('the progress counts invalid rows apart, not as failed', async () => {
    const api = new FakeService();
    const csv = join(dir, 'inv.csv');
    writeFileSync(csv, 'First Name,Last Name,Email\nA,One,a.one.progress@example.com\nB,Two,not-an-email\nC,Three,c.three.progress@example.com\n');
    const { d } = deps(api, { local: true });
    const m = memoryIO({ tty: false });
    let bar: ReturnType<typeof createProgress> | undefined;
    d.progress = (total) => (bar = createProgress({ io: m.io, globals: { color: false, quiet: false, verbose: false } }, { total, noun: 'rows' }));
    await runBulkInvite({ csv, out: join(dir, 'inv.results.csv'), createdBy: INVITER, skipInvalid: true }, d);
    expect(bar!.summary()).toMatch(/^3 rows: 2 done, 0 failed, 1 invalid, in /);
    expect(bar!.errors).toBe(0);
  });

  it('without a terminal, a progress line comes on stderr every few seconds', async () => {
    const api = new FakeService();
    writePeople(join(dir, 'p.csv'), 40, 'ticker');
    api.onPost = () => undefined;
    const slow = api.createInvitationDetailed.bind(api);
    api.createInvitationDetailed = async (body: never) => {
      await new Promise((r) => setTimeout(r, 10));
      return slow(body);
    };
    const { d, m } = deps(api, { local: true });
    await runBulkInvite({ csv: join(dir, 'p.csv'), out: join(dir, 't.csv'), createdBy: INVITER, concurrency: 1, progressEveryMs: 100 }, d);
    expect(m.stderr()).toMatch(/Inviting: \d+ of 40 rows \(\d+ created, 0 exists, 0 failed\), [\d,]+ rows\/s sent\./);
  });
});

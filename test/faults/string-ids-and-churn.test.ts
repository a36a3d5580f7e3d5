/**
 * Issue 31 (round three): the findings and "must hold" items that had no test
 * of their own yet, against the fault server of our own
 * (test/helpers/fault-server.ts; faults injected by the test, never by our
 * stub). In-process runs; docs/faults.md maps every finding to its test.
 *
 * - finding 5 / must hold 4: `job-fit --all` and `sync` while someone invites;
 * - finding 3 / must hold 2: ids as numeric strings in bulk invite (created,
 *   exists, a 201 without an id), and a value that is no id in a sync is an
 *   error, never a skip;
 * - must hold 2: a sync or report whose counts do not add up exits non-zero;
 * - must hold 1: an export that cannot finish at a terminal ends with the
 *   incomplete mark, as into a pipe or a file;
 * - finding 6: `--retry-failed` settles a 201 without an id.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { answerWithoutId, inviteArgs, people, results, unseenWithoutId } from '../bulk/helpers/no-id.js';
import { type FaultServer, faultEnv, seed, startFaultServer } from '../helpers/fault-server.js';
import { invItem, inviting, jobFitRoute, lyingList } from './lists.js';
import { INCOMPLETE_MARK } from '../../src/export/target.js';
import { runCli } from '../helpers/cli.js';
import { query } from '../sync/helpers.js';
import { ndjsonLines } from '../helpers/ndjson.js';

let server: FaultServer | undefined;
let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'jobfit-faults-'));
});
afterEach(async () => {
  await server?.close();
  server = undefined;
  rmSync(dir, { recursive: true, force: true });
});

const lines = ndjsonLines;

const takerIds = (s: FaultServer) =>
  s.invitations
    .filter((i) => i.test_taker_id !== null)
    .map((i) => i.test_taker_id!)
    .sort((a, b) => a - b);

describe('finding 5: invitations created while a test-taker export runs', () => {
  it('job-fit --all exits 0 with one report per test taker who has one', async () => {
    server = await startFaultServer({ minimal: true });
    const s = server;
    seed(s, 400, { accepted: 150 });
    jobFitRoute(s);
    inviting(s);
    const want = takerIds(s);
    const r = await runCli(['job-fit', '--all', '-o', 'ndjson'], { env: faultEnv(s) });
    expect(r.code, r.stderr).toBe(0);
    expect(
      lines(r.stdout)
        .map((x) => Number(x.test_taker_id))
        .sort((a, b) => a - b),
    ).toEqual(want);
    // The run did see invitations made during it.
    expect(s.invitations.length).toBeGreaterThan(400);
  });

  it('sync exits 0 and keeps every test taker and invitation that existed before it', async () => {
    server = await startFaultServer();
    const s = server;
    seed(s, 400, { accepted: 150 });
    jobFitRoute(s);
    const before = s.invitations.map((i) => i.id).sort((a, b) => a - b);
    const want = takerIds(s);
    inviting(s);
    const db = join(dir, 'sync.sqlite');
    const r = await runCli(['sync', '--db', db, '--sp', 'sales-rep'], { env: faultEnv(s) });
    expect(r.code, r.stderr).toBe(0);
    expect(s.invitations.length).toBeGreaterThan(400);
    expect((await query<{ id: number }>(db, 'SELECT id FROM test_takers ORDER BY id')).map((x) => Number(x.id))).toEqual(want);
    const stored = new Set((await query<{ id: number }>(db, 'SELECT id FROM invitations')).map((x) => Number(x.id)));
    expect(before.filter((id) => !stored.has(id))).toEqual([]);
  }, 60_000);
});

describe('finding 3 / must hold 2: ids as numeric strings in bulk invite', () => {
  it('created, exists (its own invitation, made before) and a 201 without an id are read as integers', async () => {
    server = await startFaultServer({ idsAsStrings: true });
    const s = server;
    // p1's invitation exists already: the same person, on the inviter's default team.
    const own = s.create({ email: 'p1@r3.example', first: 'First1', last: 'Last1', team: 1 });
    answerWithoutId(s, { which: (_req, b) => b.email === 'p3@r3.example' });
    const out = join(dir, 'out.csv');
    const r = await runCli(inviteArgs(people(dir, 4), out), { env: faultEnv(s) });
    expect(r.code, r.stderr).toBe(0);
    const rows = results(out);
    expect(rows.map((x) => [x.Email, x.status])).toEqual([
      ['p1@r3.example', 'exists'],
      ['p2@r3.example', 'created'],
      ['p3@r3.example', 'created'],
      ['p4@r3.example', 'created'],
    ]);
    for (const row of rows) expect(row.invitation_id, row.Email).toBe(String(s.invitations.find((i) => i.email === row.Email)!.id));
    expect(rows[0].invitation_id).toBe(String(own.id));
    expect(s.invitations).toHaveLength(4);
  });
});

describe('must hold 2: a value that is no id, and counts that do not add up', () => {
  it('sync: a test_taker_id of "n/a" is an error that names it and a non-zero exit, never a skip', async () => {
    server = await startFaultServer();
    const s = server;
    seed(s, 60, { accepted: 20 });
    jobFitRoute(s);
    const victim = s.invitations.find((i) => i.test_taker_id !== null)!;
    lyingList(s, '/invitations', (i) => ({ ...invItem(i), test_taker_id: i.id === victim.id ? 'n/a' : i.test_taker_id }), 0);
    const r = await runCli(['sync', '--db', join(dir, 'bad.sqlite'), '--sp', 'sales-rep'], { env: faultEnv(s) });
    expect(r.code, r.stderr).not.toBe(0);
    expect(r.stderr).toContain('"n/a"');
    expect(r.stderr).not.toMatch(/[^1-9]0 errors/);
  });

  it('sync: an invitation list whose total_count is one more than it holds exits non-zero', async () => {
    server = await startFaultServer();
    const s = server;
    seed(s, 120, { accepted: 60 });
    jobFitRoute(s);
    lyingList(s, '/invitations', invItem, 1);
    const r = await runCli(['sync', '--db', join(dir, 'lie.sqlite'), '--sp', 'sales-rep'], { env: faultEnv(s) });
    expect(r.code, r.stderr).not.toBe(0);
    expect(r.stderr).not.toMatch(/looks like a bug/i);
  });

  it('report: an invitation list whose total_count is one more than it holds exits 1, no report printed', async () => {
    server = await startFaultServer();
    const s = server;
    seed(s, 120, { accepted: 60 });
    lyingList(s, '/invitations', invItem, 1);
    const r = await runCli(['report', '--sp', 'sales-rep', '-o', 'json'], { env: faultEnv(s) });
    expect(r.code, r.stderr).toBe(1);
    expect(r.stdout).toBe('');
  });
});

describe('must hold 1: an export that cannot finish, to a terminal', () => {
  it('-o ndjson at a terminal with a total_count one too high: exit 1, and the output ends with the incomplete mark', async () => {
    server = await startFaultServer();
    const s = server;
    seed(s, 200);
    lyingList(s, '/invitations', invItem, 1);
    const r = await runCli(['invitations', 'list', '--all', '-o', 'ndjson'], { env: faultEnv(s), tty: true });
    expect(r.code, r.stderr).toBe(1);
    expect(r.stdout.trimEnd().split('\n').at(-1)).toMatch(new RegExp(`^${INCOMPLETE_MARK}: [\\d,]+ invitations written before the run stopped`));
  });
});

describe('finding 6: --retry-failed and a 201 without an id', () => {
  it('a row left "unknown" by a 201 without an id is settled by --retry-failed from the lookup, never sent again', async () => {
    server = await startFaultServer();
    const s = server;
    const lookup = unseenWithoutId(s);
    const csv = join(dir, 'people.csv');
    writeFileSync(csv, 'First Name,Last Name,Email\nAda,One,ada@r3.example\nBo,Two,bo@r3.example\n');
    const out = join(dir, 'out.csv');
    const args = inviteArgs(csv, out);
    const first = await runCli(args, { env: faultEnv(s) });
    expect(first.code).not.toBe(0);
    expect(results(out).map((x) => [x.status, x.invitation_id])).toEqual([
      ['unknown', ''],
      ['unknown', ''],
    ]);
    lookup.reveal();
    const again = await runCli([...args, '--retry-failed'], { env: faultEnv(s) });
    expect(again.code, again.stderr).toBe(0);
    expect(results(out).map((x) => [x.status, x.invitation_id])).toEqual(s.invitations.map((i) => ['created', String(i.id)]));
    expect(s.invitations).toHaveLength(2);
  });
});

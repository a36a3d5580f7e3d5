/**
 * `jobfit sync` against a server of our own that is not the stub
 * (test/helpers/fault-server.ts, its sync world), once per backend: ids sent as numeric strings are
 * stored (issue 31, finding 3); records the service no longer has are
 * marked gone and the summary matches the tables (finding 8); a first sync
 * without --sp says what it will not keep (issue 27); the typed columns and
 * the foreign keys (issue 27); a schema 1 database is migrated in place;
 * every list a sync reads adds up to its total_count, or the run fails
 * (exit 1) keeping what it committed: a test-taker list that says one more
 * than the invitations name, a team list that says one more than it holds.
 * A list without a total_count, a person accepting mid-run, and our stub's
 * `--minimal-fields` test taker items are no false alarm; nor is a person
 * deleted, or 60 accepting, between the invitation list and the test-taker
 * list (the pair is read again); an invitation list that leaves a person out
 * still fails the run, also a person among the test-taker list's newest 50
 * (who would pass as accepted since), on our server and on our stub with
 * `--minimal-fields` behind a proxy that drops them (list-proxy.ts); one
 * invited and accepting between the reads does not, nor a field missing.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { type SyncFaultServer as FaultServer, startFaultServer } from '../helpers/fault-server.js';
import { type StartedStub, startStub } from '../helpers/stub.js';
import type { RunningStub } from '../../src/stub/index.js';
import { accept } from '../../src/stub/lifecycle.js';
import { type ListProxy, startListProxy } from './list-proxy.js';
import { type Backend, dumpOf, exec, lastRun, query } from './helpers.js';
import { schemaColumns, schemaForeignKeys, writeSchemaV1 } from './schema-info.js';

const PEOPLE = 30;
const SP = 'sales-rep';

export function faultsSuite(backend: Backend): void {
  let srv: FaultServer;
  const made: string[] = [];
  const dirs = {
    tmp: (prefix = 'jobfit-sync-') => {
      const d = mkdtempSync(join(tmpdir(), prefix));
      made.push(d);
      return d;
    },
  };

  beforeAll(async () => {
    await backend.setup();
  }, 60_000);
  afterAll(async () => {
    await srv?.close();
    await backend.teardown();
    for (const d of made) rmSync(d, { recursive: true, force: true });
  });

  const sync = (db: string, ...more: string[]) => runCli(['sync', '--db', db, ...more], { env: srv.env });
  const n = async (db: string, sql: string) => Number((await query<{ n: number }>(db, sql))[0].n);

  describe('ids sent as numeric strings (issue 31, finding 3)', () => {
    it('are stored as the same integers as ids sent as numbers', async () => {
      srv = await startFaultServer({ world: 'sync', people: PEOPLE });
      const asNumbers = await backend.target(dirs, 'numbers');
      const asStrings = await backend.target(dirs, 'strings');
      const a = await sync(asNumbers, '--sp', SP);
      expect(a.code, a.stderr).toBe(0);
      srv.faults.stringIds = true;
      const b = await sync(asStrings, '--sp', SP);
      expect(b.code, b.stderr).toBe(0);
      const truth = srv.truth();
      expect((await query<{ id: number }>(asStrings, 'SELECT id FROM invitations ORDER BY id')).map((r) => r.id)).toEqual(truth.invitations);
      expect((await query<{ id: number }>(asStrings, 'SELECT id FROM test_takers ORDER BY id')).map((r) => r.id)).toEqual(truth.testTakers);
      expect(await n(asStrings, 'SELECT COUNT(*) AS n FROM scorecards')).toBe(truth.testTakers.length);
      expect(await n(asStrings, 'SELECT COUNT(*) AS n FROM job_fit_reports')).toBeGreaterThan(0);
      expect(b.stderr).toMatch(new RegExp(`Synced .*: ${truth.invitations.length} invitations, ${truth.testTakers.length} test takers;`));
      // Every column but the raw JSON (which keeps what was sent) is the same.
      const typed = (d: string) =>
        query(d, 'SELECT i.id, i.team_id, i.account_id, i.invited_by_user_id, i.test_taker_id, t.invitation_id, t.team_id AS tt_team FROM invitations i LEFT JOIN test_takers t ON t.id = i.test_taker_id ORDER BY i.id');
      expect(await typed(asStrings)).toEqual(await typed(asNumbers));
      const results = (d: string) => query(d, 'SELECT test_taker_id, invitation_id, five_star_score, job_fit_percentage FROM scorecards ORDER BY test_taker_id');
      expect(await results(asStrings)).toEqual(await results(asNumbers));
      srv.faults.stringIds = false;
    }, 60_000);
  });

  describe('records the service no longer has (issue 31, finding 8)', () => {
    it('are marked gone_at, by an incremental run and by --full, and the summary matches the tables', async () => {
      const db = await backend.target(dirs, 'gone');
      expect((await sync(db, '--sp', SP)).code).toBe(0);
      // 50001: pending (no test taker); 50002: accepted, results stored
      srv.remove(50001);
      srv.remove(50002);
      const truth = srv.truth();
      const r = await sync(db);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).toMatch(new RegExp(`Synced .*: ${truth.invitations.length} invitations, ${truth.testTakers.length} test takers; .* 3 marked gone, 0 errors\\.`));
      expect(await n(db, 'SELECT COUNT(*) AS n FROM invitations WHERE gone_at IS NULL')).toBe(truth.invitations.length);
      expect(await n(db, 'SELECT COUNT(*) AS n FROM test_takers WHERE gone_at IS NULL')).toBe(truth.testTakers.length);
      expect((await query<{ id: number }>(db, 'SELECT id FROM invitations WHERE gone_at IS NOT NULL ORDER BY id')).map((x) => x.id)).toEqual([50001, 50002]);
      expect((await query<{ id: number }>(db, 'SELECT id FROM test_takers WHERE gone_at IS NOT NULL')).map((x) => x.id)).toEqual([70002]);
      // Results stay readable; the run records what it marked.
      expect(await n(db, 'SELECT COUNT(*) AS n FROM scorecards WHERE test_taker_id = 70002')).toBe(1);
      expect(await n(db, 'SELECT rows_gone AS n FROM sync_runs ORDER BY id DESC LIMIT 1')).toBe(3);

      srv.remove(50003);
      const full = await sync(db, '--full');
      expect(full.code, full.stderr).toBe(0);
      expect(full.stderr).toMatch(new RegExp(`Synced .*: ${truth.invitations.length - 1} invitations, ${truth.testTakers.length - 1} test takers; .* 2 marked gone, 0 errors\\.`));
      expect(await n(db, 'SELECT COUNT(*) AS n FROM invitations WHERE gone_at IS NULL')).toBe(truth.invitations.length - 1);
      expect(await n(db, 'SELECT COUNT(*) AS n FROM test_takers WHERE gone_at IS NULL')).toBe(truth.testTakers.length - 1);
    }, 60_000);
  });

  describe('a first sync without --sp (issue 27, item 6)', () => {
    it('says it keeps no scorecards, once', async () => {
      const db = await backend.target(dirs, 'nosp');
      const r = await sync(db);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).toMatch(/No --sp given: no scorecards will be kept/);
      expect(await n(db, 'SELECT COUNT(*) AS n FROM scorecards')).toBe(0);
      const again = await sync(db);
      expect(again.stderr).not.toMatch(/No --sp given/);
    }, 60_000);
  });

  describe('an analyst\'s database (issue 27, item 2)', () => {
    it('timestamps, flags, JSON and fractional scores have their types; the keys are declared and enforced', async () => {
      const db = await backend.target(dirs, 'types');
      expect((await sync(db, '--sp', SP)).code).toBe(0);
      const cols = await schemaColumns(db);
      const type = (t: string, c: string) => cols.find((x) => x.table === t && x.column === c)?.type;
      for (const [t, c] of [['invitations', 'created_at'], ['invitations', 'accepted_at'], ['assigned_assessments', 'completed_at'], ['sync_runs', 'started_at'], ['sync_runs', 'finished_at'], ['sync_lock', 'started_at'], ['sync_lock', 'heartbeat_at'], ['invitations', 'gone_at']]) {
        expect([t, c, type(t, c)]).toEqual([t, c, backend.name === 'postgres' ? 'timestamp with time zone' : 'TIMESTAMPTZ']);
      }
      for (const [t, c] of [['invitations', 'send_via_email'], ['invitations', 'send_via_sms'], ['invitations', 'send_congrats_notification']]) {
        expect([t, c, type(t, c)]).toEqual([t, c, backend.name === 'postgres' ? 'boolean' : 'BOOLEAN']);
      }
      for (const t of ['users', 'invitations', 'test_takers', 'scorecards', 'job_fit_reports', 'career_navigation_profiles']) {
        expect([t, type(t, 'raw')]).toEqual([t, backend.name === 'postgres' ? 'jsonb' : 'JSON']);
      }
      for (const [t, c] of [['scorecards', 'fitscore_raw'], ['scorecards', 'job_fit_percentage'], ['job_fit_occupations', 'job_fit_percentage']]) {
        expect([t, c, type(t, c)]).toEqual([t, c, backend.name === 'postgres' ? 'numeric' : 'NUMERIC']);
      }
      // The sweep (issue 27's "must show"): no timestamp, flag or JSON column anywhere is text or an integer.
      const ts = backend.name === 'postgres' ? 'timestamp with time zone' : 'TIMESTAMPTZ';
      const flag = backend.name === 'postgres' ? 'boolean' : 'BOOLEAN';
      const json = backend.name === 'postgres' ? 'jsonb' : 'JSON';
      const wrong = cols.filter(
        (c) =>
          (/_at$/.test(c.column) && c.type !== ts) ||
          (/^send_|^full_sync$/.test(c.column) && c.type !== flag) ||
          ((c.column === 'raw' || c.column === 'requests_by_kind') && c.type !== json),
      );
      expect(wrong).toEqual([]);
      const keys = (await schemaForeignKeys(db)).map((k) => `${k.table}.${k.column} -> ${k.references}`).sort();
      expect(keys).toEqual(
        [
          'assigned_assessments.test_taker_id -> test_takers.id',
          'career_navigation_profiles.test_taker_id -> test_takers.id',
          'invitations.test_taker_id -> test_takers.id',
          'job_fit_occupations.test_taker_id -> job_fit_reports.test_taker_id',
          'job_fit_reports.test_taker_id -> test_takers.id',
          'scorecards.test_taker_id -> test_takers.id',
          'test_takers.invitation_id -> invitations.id',
        ].sort(),
      );
      // Enforced: a scorecard of nobody is refused.
      await expect(exec(db, `${backend.name === 'sqlite' ? 'PRAGMA foreign_keys = ON; ' : ''}INSERT INTO scorecards (test_taker_id, score_profile, raw, basis) VALUES (999999, 'x', '{}', 'b')`)).rejects.toThrow(/foreign key/i);
      // Flags and JSON read as such without casts.
      expect(await n(db, `SELECT COUNT(*) AS n FROM invitations WHERE send_via_email AND raw->>'email' LIKE '%@faultco.example'`)).toBe(srv.truth().invitations.length);
    }, 60_000);

    it('a schema 1 database (text timestamps, integer flags, no keys, an orphan) is migrated in place and ends as a fresh sync would', async () => {
      const old = await backend.target(dirs, 'v1');
      await writeSchemaV1(old);
      const r = await sync(old, '--sp', SP);
      expect(r.code, r.stderr).toBe(0);
      expect(await n(old, `SELECT value AS n FROM sync_meta WHERE key = 'schema_version'`)).toBe(2);
      // The old run record survives, converted.
      const run = (await query<{ started_at: string; full_sync: unknown; requests_by_kind: string }>(old, 'SELECT started_at, full_sync, requests_by_kind FROM sync_runs ORDER BY id LIMIT 1'))[0];
      expect(run.started_at).toBe('2026-11-01T08:00:00.000Z');
      expect(Boolean(run.full_sync)).toBe(true);
      expect(JSON.parse(run.requests_by_kind)).toEqual({ account: 1 });
      expect((await schemaForeignKeys(old)).length).toBe(7);
      // The orphan (a scorecard of a test taker never stored) is gone; the rest equals a fresh sync.
      const fresh = await backend.target(dirs, 'v1-fresh');
      expect((await sync(fresh, '--sp', SP)).code).toBe(0);
      expect(await dumpOf(old)).toBe(await dumpOf(fresh));
      expect(await schemaColumns(old)).toEqual(await schemaColumns(fresh));
    }, 60_000);
  });

  describe('lists whose total_count says more than they hold (exact or loudly wrong)', () => {
    let liar: FaultServer | undefined;
    const people = (db: string) => Promise.all([n(db, 'SELECT COUNT(*) AS n FROM invitations WHERE gone_at IS NULL'), n(db, 'SELECT COUNT(*) AS n FROM test_takers WHERE gone_at IS NULL')]);
    const syncAt = (s: FaultServer, db: string, ...more: string[]) => runCli(['sync', '--db', db, ...more], { env: s.env });
    afterAll(async () => {
      await liar?.close();
    });

    it('a test-taker list whose total_count is one more than the invitations name: exit 1, everything committed kept; then exit 0', async () => {
      liar = await startFaultServer({ world: 'sync', people: PEOPLE });
      const truth = liar.truth();
      const db = await backend.target(dirs, 'takers-plus-one');
      liar.faults.overstate['test-takers'] = 1;
      const r = await syncAt(liar, db, '--sp', SP);
      liar.faults.overstate = {};
      expect(r.code, r.stderr).toBe(1);
      expect(r.stderr).toContain(`The counts do not add up: the service's list of test takers says ${truth.testTakers.length + 1} (total_count), the invitation list names ${truth.testTakers.length}.`);
      expect(r.stderr).not.toMatch(/^Synced /m);
      // What the run committed stays; the run is recorded as failed.
      expect(await people(db)).toEqual([truth.invitations.length, truth.testTakers.length]);
      expect(await n(db, 'SELECT COUNT(*) AS n FROM scorecards')).toBe(truth.testTakers.length);
      const run = await lastRun(db);
      expect(run.status).toBe('failed');
      expect(run.by.test_taker_list).toBe(1);
      const again = await syncAt(liar, db);
      expect(again.code, again.stderr).toBe(0);
      // The check costs one request a run, also when nothing changed.
      expect((await lastRun(db)).by.test_taker_list).toBe(1);
    }, 60_000);

    it('a team list whose total_count is one more than it holds: exit 1, the people synced, no team marked gone', async () => {
      const s = liar!;
      const db = await backend.target(dirs, 'teams-plus-one');
      expect((await syncAt(s, db, '--sp', SP)).code).toBe(0);
      s.faults.overstate.teams = 1;
      const r = await syncAt(s, db);
      s.faults.overstate = {};
      expect(r.code, r.stderr).toBe(1);
      expect(r.stderr).toContain("The counts do not add up: the service's list of teams says 3 (total_count) and holds 2.");
      expect(await n(db, 'SELECT COUNT(*) AS n FROM teams WHERE gone_at IS NULL')).toBe(2);
      expect(await people(db)).toEqual([s.truth().invitations.length, s.truth().testTakers.length]);
    }, 60_000);

    it('lists without a total_count (test takers, teams, users) are taken as they are', async () => {
      const s = liar!;
      const db = await backend.target(dirs, 'uncounted');
      s.faults.uncounted = ['test-takers', 'teams', 'users'];
      const r = await syncAt(s, db, '--sp', SP);
      s.faults.uncounted = [];
      expect(r.code, r.stderr).toBe(0);
      expect(await people(db)).toEqual([s.truth().invitations.length, s.truth().testTakers.length]);
    }, 60_000);

    it('a person accepting after the invitation list was read is no false alarm; the next run syncs them', async () => {
      const s = liar!;
      const db = await backend.target(dirs, 'accepting');
      expect((await syncAt(s, db, '--sp', SP)).code).toBe(0);
      const before = s.truth().testTakers.length;
      // 50001 is pending and unchanged in the list: the incremental run does not fetch it.
      s.afterList = (list) => {
        if (list !== 'invitations') return;
        s.afterList = undefined;
        s.accept(50001);
      };
      const r = await syncAt(s, db, '-v');
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).toMatch(/sync: 1 test takers accepted after the invitation list was read/);
      expect(await n(db, 'SELECT COUNT(*) AS n FROM test_takers')).toBe(before);
      const next = await syncAt(s, db);
      expect(next.code, next.stderr).toBe(0);
      expect(await n(db, 'SELECT COUNT(*) AS n FROM test_takers WHERE id = 70001')).toBe(1);
    }, 60_000);

    it('our stub with --minimal-fields (test taker list items carry only what the reference states) adds up', async () => {
      const started = await startStub({ dataDir: dirs.tmp('jobfit-stub-'), server: { minimalFields: true } });
      const stub = started.server!;
      try {
        const team = stub.store.all<{ id: number }>('SELECT id FROM teams WHERE account_id = 1 ORDER BY id')[0];
        await stub.store.seedPeople(1, team.id, 40, { mix: { pending: 0.2, accepted: 0.2, partial: 0.3, complete: 0.3 } });
        const db = await backend.target(dirs, 'minimal');
        const r = await runCli(['sync', '--db', db, '--sp', SP], { env: { JOBFIT_BASE_URL: stub.url, JOBFIT_API_KEY: stub.keys[0].live_key } });
        expect(r.code, r.stderr).toBe(0);
        expect((await lastRun(db)).by.test_taker_list).toBe(1);
      } finally {
        await started.stop();
      }
    }, 60_000);
  });

  describe('our stub with --minimal-fields, behind a proxy whose invitation list can drop people (list-proxy.ts)', () => {
    let started: StartedStub | undefined;
    let stub: RunningStub;
    let proxy: ListProxy;
    let db: string;
    /** The oldest pending invitations, invited days ago (seeded over 90 days). */
    let pending: number[];
    const syncStub = (...more: string[]) => runCli(['sync', '--db', db, ...more], { env: { JOBFIT_BASE_URL: proxy.url, JOBFIT_API_KEY: stub.keys[0].live_key } });
    beforeAll(async () => {
      started = await startStub({ dataDir: dirs.tmp('jobfit-stub-'), server: { minimalFields: true } });
      stub = started.server!;
      proxy = await startListProxy(stub.origin);
      const team = stub.store.all<{ id: number }>('SELECT id FROM teams WHERE account_id = 1 ORDER BY id')[0];
      await stub.store.seedPeople(1, team.id, 40, { mix: { pending: 0.3, accepted: 0.2, partial: 0.2, complete: 0.3 } });
      const oldest = stub.store.all<{ id: number; created_at: string }>('SELECT id, created_at FROM invitations WHERE account_id = 1 AND accepted_at IS NULL ORDER BY created_at LIMIT 2');
      expect(Date.parse(oldest[1].created_at)).toBeLessThan(Date.now() - 3_600_000);
      pending = oldest.map((i) => i.id);
      db = await backend.target(dirs, 'minimal-proxy');
      const first = await syncStub('--sp', SP);
      expect(first.code, first.stderr).toBe(0);
    }, 60_000);
    afterAll(async () => {
      await proxy?.close();
      await started?.stop();
    });

    it('a person accepting between the two reads is no false alarm: one request', async () => {
      proxy.beforeList = (list) => {
        if (list !== 'test-takers') return;
        proxy.beforeList = undefined;
        accept(stub.store, pending[0]);
      };
      const between = await syncStub('-v');
      expect(between.code, between.stderr).toBe(0);
      expect(between.stderr).toMatch(/sync: 1 test takers accepted after the invitation list was read/);
      expect((await lastRun(db)).by.test_taker_since_check).toBe(1);
    }, 60_000);

    it('the newest test taker, never synced, dropped by the list: exit 1, nobody marked gone, until the list has them again', async () => {
      const dropped = accept(stub.store, pending[1]);
      proxy.hidden = [dropped.invitationId];
      try {
        const r = await syncStub();
        expect(r.code, r.stderr).toBe(1);
        expect(r.stderr).toContain(`cannot have accepted after it was read: ${dropped.testTakerId} (invitation ${dropped.invitationId}).`);
        const run = await lastRun(db);
        expect([run.status, run.by.test_taker_since_check, run.by.invitation_since_check]).toEqual(['failed', 1, 1]);
        expect(await n(db, 'SELECT COUNT(*) AS n FROM test_takers WHERE gone_at IS NOT NULL')).toBe(0);
      } finally {
        proxy.hidden = [];
      }
      const healed = await syncStub();
      expect(healed.code, healed.stderr).toBe(0);
      expect(await n(db, `SELECT COUNT(*) AS n FROM test_takers WHERE id = ${dropped.testTakerId}`)).toBe(1);
    }, 60_000);
  });

  describe('a change between the two list reads is no false alarm; a list that drops a person still fails', () => {
    // More than 50 test takers, so the test-taker list (its newest 50) cannot show them all.
    let racy: FaultServer | undefined;
    const syncAt = (db: string, ...more: string[]) => runCli(['sync', '--db', db, ...more], { env: racy!.env });
    /** Runs `change` once, when the test-taker list is asked for (after the invitation list was read). */
    const beforeTakerList = (change: () => void) => {
      racy!.beforeList = (list) => {
        if (list !== 'test-takers') return;
        racy!.beforeList = undefined;
        change();
      };
    };
    beforeAll(async () => {
      racy = await startFaultServer({ world: 'sync', people: 200 });
    });
    afterAll(async () => {
      await racy?.close();
    });

    it('a person deleted between the invitation list and the test-taker list: read again, exit 0; the next run marks them gone', async () => {
      const db = await backend.target(dirs, 'deleted-between');
      expect((await syncAt(db, '--sp', SP)).code).toBe(0);
      // 50003 completed everything and is unchanged: the incremental run does not fetch it.
      beforeTakerList(() => racy!.remove(50003));
      const r = await syncAt(db, '-v');
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).toMatch(/Reading both lists once more/);
      expect(r.stderr).toMatch(/sync: read again, the lists add up/);
      const run = await lastRun(db);
      expect(run.status).toBe('ok');
      expect(run.by.test_taker_list).toBe(1);
      expect(run.by.test_taker_list_recheck).toBe(1);
      expect(run.by.invitation_list_recheck).toBeGreaterThan(0);
      const next = await syncAt(db);
      expect(next.code, next.stderr).toBe(0);
      expect(await n(db, 'SELECT COUNT(*) AS n FROM invitations WHERE id = 50003 AND gone_at IS NOT NULL')).toBe(1);
      expect(await n(db, 'SELECT COUNT(*) AS n FROM test_takers WHERE gone_at IS NULL')).toBe(racy!.truth().testTakers.length);
      // Nothing changed between the reads: one read of each, no recheck.
      expect((await lastRun(db)).by.test_taker_list_recheck).toBeUndefined();
    }, 90_000);

    it('60 people accepting between the two reads (more than the 50 the test-taker list shows): read again, exit 0; the next run syncs them', async () => {
      const db = await backend.target(dirs, 'many-accept');
      expect((await syncAt(db, '--sp', SP)).code).toBe(0);
      const truth = racy!.truth();
      // Invitation 50001 + i is accepted as test taker 70001 + i.
      const pending = truth.invitations.filter((id) => !truth.testTakers.includes(id + 20000));
      expect(pending.length).toBeGreaterThan(60);
      beforeTakerList(() => {
        for (const id of pending.slice(0, 60)) racy!.accept(id);
      });
      const r = await syncAt(db, '-v');
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).toMatch(/sync: 50 test takers accepted after the invitation list was read/);
      expect(r.stderr).toMatch(/sync: read again, the lists add up/);
      expect((await lastRun(db)).by.test_taker_list_recheck).toBe(1);
      const next = await syncAt(db);
      expect(next.code, next.stderr).toBe(0);
      expect(await n(db, 'SELECT COUNT(*) AS n FROM test_takers WHERE gone_at IS NULL')).toBe(racy!.truth().testTakers.length);
    }, 90_000);

    it('an invitation list that leaves out a person (items and total_count): read twice, exit 1 both times', async () => {
      const db = await backend.target(dirs, 'dropped');
      // 50002 accepted first of all: the oldest test taker, outside the newest 50.
      racy!.faults.hidden = [50002];
      try {
        const takers = racy!.truth().testTakers.length;
        const r = await syncAt(db, '--sp', SP);
        expect(r.code, r.stderr).toBe(1);
        expect(r.stderr).toContain(`The counts do not add up: the service's list of test takers says ${takers} (total_count), the invitation list names ${takers - 1}.`);
        expect(r.stderr).not.toMatch(/^Synced /m);
        const run = await lastRun(db);
        expect(run.status).toBe('failed');
        expect(run.by.test_taker_list_recheck).toBe(1);
        expect((await syncAt(db)).code).toBe(1);
      } finally {
        racy!.faults.hidden = [];
      }
      expect((await syncAt(db)).code).toBe(0);
    }, 90_000);

    /** A pending person of the racy server accepts now: the newest test taker (invitation 50001 + i, test taker 70001 + i). */
    const acceptOne = () => {
      const truth = racy!.truth();
      const invitation = truth.invitations.find((id) => !truth.testTakers.includes(id + 20000))!;
      racy!.accept(invitation);
      return { invitation, taker: invitation + 20000 };
    };
    const held = (db: string) =>
      query<{ id: number; gone_at: string | null }>(db, 'SELECT id, gone_at FROM test_takers UNION ALL SELECT id, gone_at FROM invitations ORDER BY id');

    it('an invitation list that leaves out a person among the newest 50 test takers: exit 1 every run, naming them; nothing written is lost or marked gone', async () => {
      const db = await backend.target(dirs, 'dropped-newest');
      const { invitation, taker } = acceptOne();
      expect((await syncAt(db, '--sp', SP)).code).toBe(0);
      const before = await dumpOf(db);
      const rows = await held(db);
      // The person the list drops is the test-taker list's newest: it shows them, the invitation list does not.
      racy!.faults.hidden = [invitation];
      try {
        const r = await syncAt(db, '-v');
        expect(r.code, r.stderr).toBe(1);
        expect(r.stderr).toContain(
          `The counts do not add up: the service's list of test takers shows 1 test taker the invitation list does not name, and who cannot have accepted after it was read: ${taker} (invitation ${invitation}).`,
        );
        expect(r.stderr).not.toMatch(/^Synced /m);
        const run = await lastRun(db);
        expect(run.status).toBe('failed');
        // Its test taker, then its invitation: two requests, and no second reading (the pair adds up).
        expect(run.by.test_taker_since_check).toBe(1);
        expect(run.by.invitation_since_check).toBe(1);
        expect(run.by.test_taker_list_recheck).toBeUndefined();
        expect(await held(db)).toEqual(rows);
        expect(await n(db, `SELECT COUNT(*) AS n FROM test_takers WHERE id = ${taker} AND gone_at IS NULL`)).toBe(1);
        const again = await syncAt(db);
        expect(again.code, again.stderr).toBe(1);
        expect(await held(db)).toEqual(rows);
      } finally {
        racy!.faults.hidden = [];
      }
      const healed = await syncAt(db);
      expect(healed.code, healed.stderr).toBe(0);
      expect(await dumpOf(db)).toBe(before);
    }, 90_000);

    it('a person dropped by the list, never synced, while another is deleted between the reads: the second reading fails the run', async () => {
      const db = await backend.target(dirs, 'dropped-recheck');
      expect((await syncAt(db, '--sp', SP)).code).toBe(0);
      const { invitation, taker } = acceptOne();
      racy!.faults.hidden = [invitation];
      // The deletion makes the first pair not add up; the second adds up only by counting the dropped person as accepted since.
      // A person who completed everything (every third from 50003) and is unchanged: the incremental run does not fetch them.
      const gone = racy!.truth().invitations.find((id) => (id - 50001) % 3 === 2 && racy!.truth().testTakers.includes(id + 20000))!;
      beforeTakerList(() => racy!.remove(gone));
      try {
        const r = await syncAt(db, '-v');
        expect(r.code, r.stderr).toBe(1);
        expect(r.stderr).toMatch(/Reading both lists once more/);
        expect(r.stderr).toContain(`cannot have accepted after it was read: ${taker} (invitation ${invitation}).`);
        expect((await lastRun(db)).by.test_taker_list_recheck).toBe(1);
        expect(await n(db, `SELECT COUNT(*) AS n FROM test_takers WHERE id = ${taker}`)).toBe(0);
      } finally {
        racy!.faults.hidden = [];
      }
      expect((await syncAt(db)).code).toBe(0);
      expect(await n(db, `SELECT COUNT(*) AS n FROM test_takers WHERE id = ${taker} AND gone_at IS NULL`)).toBe(1);
    }, 90_000);

    it('a person invited and accepting between the two reads (not in the list at all) is no false alarm: two requests', async () => {
      const db = await backend.target(dirs, 'invited-between');
      expect((await syncAt(db, '--sp', SP)).code).toBe(0);
      let invitation = 0;
      beforeTakerList(() => {
        invitation = racy!.invite();
        racy!.accept(invitation);
      });
      const r = await syncAt(db, '-v');
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).toMatch(/sync: 1 test takers accepted after the invitation list was read/);
      expect(r.stderr).not.toMatch(/the weaker rule/);
      const run = await lastRun(db);
      expect([run.by.test_taker_since_check, run.by.invitation_since_check]).toEqual([1, 1]);
      expect((await syncAt(db)).code).toBe(0);
      expect(await n(db, `SELECT COUNT(*) AS n FROM test_takers WHERE id = ${invitation + 20000}`)).toBe(1);
      // Nothing accepted between the reads: the check makes no request.
      const quiet = await lastRun(db);
      expect([quiet.by.test_taker_since_check, quiet.by.invitation_since_check]).toEqual([undefined, undefined]);
    }, 90_000);

    it('what decides missing (no created_at, no Date header, no invitation_id): the weaker rule, said with -v, never a false alarm', async () => {
      const db = await backend.target(dirs, 'fields-missing');
      expect((await syncAt(db, '--sp', SP)).code).toBe(0);
      const cases: Array<[Partial<Pick<FaultServer['faults'], 'omit' | 'noDate'>>, RegExp]> = [
        [{ omit: ['invitation.created_at'] }, /\(the created_at of invitation \d+ missing\)/],
        [{ noDate: true }, /carry no Date header/],
        [{ omit: ['test_taker.invitation_id'] }, /\(its invitation_id missing\)/],
      ];
      for (const [fault, said] of cases) {
        Object.assign(racy!.faults, fault);
        beforeTakerList(() => racy!.accept(racy!.invite()));
        try {
          const r = await syncAt(db, '-v');
          expect(r.code, r.stderr).toBe(0);
          expect(r.stderr).toMatch(/sync: taken as accepted after the invitation list was read without knowing \(the weaker rule\): test taker \d+/);
          expect(r.stderr).toMatch(said);
        } finally {
          Object.assign(racy!.faults, { omit: [], noDate: false });
        }
      }
    }, 90_000);
  });
}

/**
 * What needs both backends at once, or a PostgreSQL server we can stop:
 * - the example queries of docs/sync.md give the same answers on SQLite and
 *   PostgreSQL over the same data (issue 27, item 2);
 * - PostgreSQL going away mid-sync is "PostgreSQL went away", with the count
 *   of people really kept and how to rerun (issue 31, finding 9).
 * Against the fault server of test/sync (not our stub).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { startFaultServer } from '../helpers/fault-server.js';
import { query } from './helpers.js';
import { type PgServer, postgresBin, startPgServer } from './pg-server.js';

/** The ```sql blocks of a section of docs/sync.md (up to the next `## `). */
function sqlBlocks(section: string): string[] {
  const doc = readFileSync(new URL('../../docs/sync.md', import.meta.url), 'utf8');
  const start = doc.indexOf(`\n## ${section}\n`);
  const end = doc.indexOf('\n## ', start + 1);
  return [...doc.slice(start, end).matchAll(/```sql\n([\s\S]*?)```/g)].map((m) => m[1].trim());
}

async function pgCount(url: string, sql: string): Promise<number> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    return Number((await c.query<{ n: string }>(sql)).rows[0].n);
  } finally {
    await c.end();
  }
}

const run = postgresBin() || process.env.CI ? describe : describe.skip;

run('PostgreSQL and SQLite side by side', () => {
  let server: PgServer;
  let dir: string;

  beforeAll(async () => {
    server = (await startPgServer())!;
    dir = mkdtempSync(join(tmpdir(), 'jobfit-sync-'));
  }, 60_000);
  afterAll(async () => {
    await server?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('the example queries of docs/sync.md give the same answers on both', async () => {
    const srv = await startFaultServer({ world: 'sync', people: 60 });
    try {
      const lite = join(dir, 'queries.sqlite');
      const pgdb = await server.newDatabase();
      for (const db of [lite, pgdb]) {
        const r = await runCli(['sync', '--db', db, '--sp', 'sales-rep'], { env: srv.env });
        expect(r.code, r.stderr).toBe(0);
      }
      const examples = sqlBlocks('Example queries');
      const pgForms = sqlBlocks('PostgreSQL');
      // The one query whose text differs: the weekly count, given again in the PostgreSQL section.
      expect(pgForms.length).toBe(1);
      const weekly = examples.findIndex((q) => /completed_at/.test(q) && /week/i.test(q));
      expect(weekly).toBeGreaterThanOrEqual(0);
      let compared = 0;
      for (const [i, sql] of examples.entries()) {
        // The runs differ by their times; the rest is data.
        if (/sync_runs/.test(sql)) continue;
        const onLite = await query(lite, sql);
        const onPg = await query(pgdb, i === weekly ? pgForms[0] : sql);
        expect(onLite.length, sql).toBeGreaterThan(0);
        expect(onPg, sql).toEqual(onLite);
        compared++;
      }
      expect(compared).toBeGreaterThanOrEqual(5);
    } finally {
      await srv.close();
    }
  }, 120_000);

  it('PostgreSQL restarting mid-sync: "PostgreSQL went away", the people kept counted right, and a rerun finishes', async () => {
    const srv = await startFaultServer({ world: 'sync', people: 1500 });
    try {
      const db = await server.newDatabase();
      const running = runCli(['sync', '--db', db, '--sp', 'sales-rep', '--concurrency', '4'], { env: srv.env });
      // Poll until some people are committed, then restart the server under the run.
      for (let i = 0; i < 600; i++) {
        const n = await pgCount(db, 'SELECT COUNT(*) AS n FROM invitations').catch(() => 0);
        if (n >= 50) break;
        await new Promise((r) => setTimeout(r, 25));
      }
      await server.stop();
      const r = await running;
      expect(r.code, r.stderr).toBe(1);
      expect(r.stderr).toMatch(/PostgreSQL went away/);
      expect(r.stderr).not.toMatch(/bug/i);
      const m = /Stopped: ([\d,]+) of ([\d,]+) people were synced and kept; run the same command again once the database is back/.exec(r.stderr);
      expect(m, r.stderr).not.toBeNull();
      const kept = Number(m![1].replace(/,/g, ''));
      expect(kept).toBeLessThan(1500);
      await server.start();
      // Every person counted as kept is in the database, and no more.
      expect(await pgCount(db, 'SELECT COUNT(*) AS n FROM invitations')).toBe(kept);
      const again = await runCli(['sync', '--db', db], { env: srv.env });
      expect(again.code, again.stderr).toBe(0);
      const truth = srv.truth();
      expect(await pgCount(db, 'SELECT COUNT(*) AS n FROM invitations WHERE gone_at IS NULL')).toBe(truth.invitations.length);
      expect(await pgCount(db, 'SELECT COUNT(*) AS n FROM test_takers WHERE gone_at IS NULL')).toBe(truth.testTakers.length);
      expect(await pgCount(db, 'SELECT COUNT(*) AS n FROM scorecards')).toBe(truth.testTakers.length);
    } finally {
      await srv.close();
    }
  }, 180_000);
});

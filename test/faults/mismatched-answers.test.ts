/**
 * Issue 43 (round four), item 2: every item answer is checked against its
 * question. Against the fault server of our own: a broken proxy that sends a
 * reused connection's previous answer again (test/faults/hostile.ts
 * staleOnReuse), and answers carrying another person's object (otherPerson).
 * Before the fix, scorecard --all and job-fit --all exited 0 with people
 * duplicated and as many missing, and report counted the wrong stars.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { type FaultServer, faultEnv, seed, startFaultServer } from '../helpers/fault-server.js';
import { runCli } from '../helpers/cli.js';
import { jobFitRoute } from './lists.js';
import { otherPerson, staleOnReuse } from './hostile.js';

let server: FaultServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const ndjson = (out: string) =>
  out
    .trim()
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Record<string, unknown>);

/** A fault server of 400 invitations, 300 of them accepted with results, five stars spread by id. */
async function people(): Promise<FaultServer> {
  const s = await startFaultServer();
  seed(s, 400, { accepted: 300 });
  jobFitRoute(s);
  return s;
}

const accepted = (s: FaultServer) => s.invitations.filter((i) => i.test_taker_id !== null).map((i) => i.test_taker_id!).sort();
const ids = (rows: Record<string, unknown>[]) => rows.map((r) => Number(r.test_taker_id)).sort();

describe('a reused connection that answers with its previous answer (a broken proxy)', () => {
  it('scorecard --all: every test taker exactly once, each row theirs; the stale answers were asked again', async () => {
    server = await people();
    staleOnReuse(server, 0.05);
    const r = await runCli(['scorecard', '--all', '--sp', 'sales-rep', '-o', 'ndjson'], { env: faultEnv(server) });
    expect(server.staleSent, 'the proxy sent stale answers').toBeGreaterThan(3);
    expect(r.code, r.stderr).toBe(0);
    expect(ids(ndjson(r.stdout))).toEqual(accepted(server));
  });

  it('job-fit --all: every test taker exactly once', async () => {
    server = await people();
    staleOnReuse(server, 0.05, 3);
    const r = await runCli(['job-fit', '--all', '-o', 'ndjson'], { env: faultEnv(server) });
    expect(server.staleSent).toBeGreaterThan(3);
    expect(r.code, r.stderr).toBe(0);
    expect(ids(ndjson(r.stdout))).toEqual(accepted(server));
  });
});

describe("an item answer carrying another person's object", () => {
  it('report: the star distribution is the one of the clean service', async () => {
    server = await people();
    const clean = await runCli(['report', '--sp', 'sales-rep', '-o', 'json'], { env: faultEnv(server) });
    expect(clean.code, clean.stderr).toBe(0);
    otherPerson(server, { rate: 0.05 });
    const r = await runCli(['report', '--sp', 'sales-rep', '-o', 'json'], { env: faultEnv(server) });
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual(JSON.parse(clean.stdout));
  });

  it('scorecard --all: one test taker always answered with someone else: that one fails loudly (exit 3), never written as theirs', async () => {
    server = await people();
    const victim = accepted(server)[10];
    otherPerson(server, { always: victim });
    const r = await runCli(['scorecard', '--all', '--sp', 'sales-rep', '-o', 'ndjson'], { env: faultEnv(server) });
    expect(r.code, r.stderr).toBe(3);
    expect(r.stderr).toContain(`GET /test-takers/${victim}/scorecard with another item twice`);
    const got = ids(ndjson(r.stdout));
    expect(got).toHaveLength(299);
    expect(new Set(got).size).toBe(299);
    expect(got).not.toContain(victim);
  });
});

/**
 * The --sp check (GET /score-profiles) is the first read of a scorecard or
 * report export, and is asked again like every other read of it
 * (ask-again.ts): a dropped connection that outlasts the client's own retries
 * must not end the run before it starts. Issue 23 item 7: the independent
 * server's fault schedule once dropped /score-profiles four times in a row
 * (the client's whole budget), and `scorecard --ids-from` exited 1 with
 * "No complete answer … to GET /score-profiles (the connection was closed)".
 * The --team NAME lookup, the other first read, is asked again the same way.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_RETRY } from '../../src/client/retry.js';
import { type FaultServer, faultEnv, seed, startFaultServer } from '../helpers/fault-server.js';
import { runCli } from '../helpers/cli.js';
import { humanStderr } from '../helpers/stderr.js';

let server: FaultServer | undefined;
let dir: string | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

/** The client's whole budget for one request: the first attempt and every retry. */
const CLIENT_ATTEMPTS = 1 + DEFAULT_RETRY.maxRetries;

/** A server whose GET `path` drops the connection, without an answer, on its first `drops` requests (as test/independent/server.py drops one). */
async function dropping(drops: number, path = '/score-profiles'): Promise<FaultServer> {
  const s = await startFaultServer();
  seed(s, 12, { accepted: 8 });
  s.faults.push((req, res) => {
    if (req.path !== path || req.nth > drops) return false;
    res.socket?.destroy();
    return true;
  });
  return s;
}

const scoreProfileRequests = (s: FaultServer) => s.log.filter((l) => l === 'GET /score-profiles').length;

describe('the --sp check outlasts dropped connections like the rest of an export', () => {
  it('scorecard --ids-from: /score-profiles dropped for the client\'s whole budget, then answered: every scorecard written, exit 0', async () => {
    server = await dropping(CLIENT_ATTEMPTS);
    dir = mkdtempSync(join(tmpdir(), 'jobfit-sp-check-'));
    const ids = server.invitations.filter((i) => i.test_taker_id !== null).map((i) => i.test_taker_id!);
    const file = join(dir, 'ids.txt');
    writeFileSync(file, `${ids.join('\n')}\n`);
    const r = await runCli(['scorecard', '--ids-from', file, '--sp', 'sales-rep', '-o', 'ndjson'], { env: faultEnv(server) });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).not.toContain('No complete answer');
    const got = r.stdout.trim().split('\n').map((l) => (JSON.parse(l) as { test_taker_id: number }).test_taker_id);
    expect(got.sort((a, b) => a - b)).toEqual([...ids].sort((a, b) => a - b));
    // Asked again once after the client gave up: one more request than its budget, no more.
    expect(scoreProfileRequests(server)).toBe(CLIENT_ATTEMPTS + 1);
  }, 30_000);

  it('report: the same check, the same outcome', async () => {
    server = await dropping(CLIENT_ATTEMPTS);
    const r = await runCli(['report', '--sp', 'sales-rep', '-o', 'json'], { env: faultEnv(server) });
    expect(r.code, r.stderr).toBe(0);
    expect((JSON.parse(r.stdout) as { total: { invited: number; accepted: number } }).total).toMatchObject({ invited: 12, accepted: 8 });
    expect(scoreProfileRequests(server)).toBe(CLIENT_ATTEMPTS + 1);
  }, 30_000);

  it('an unknown --sp is still refused at once, after one request', async () => {
    server = await dropping(0);
    const r = await runCli(['scorecard', '--all', '--sp', 'nope', '-o', 'ndjson'], { env: faultEnv(server) });
    expect(r.code).toBe(2);
    expect(humanStderr(r.stderr)).toContain('Unknown score profile "nope" for --sp.');
    expect(scoreProfileRequests(server)).toBe(1);
  });

  it('--team NAME: GET /teams dropped for the client\'s whole budget, then answered: the name is found, exit 0', async () => {
    server = await dropping(CLIENT_ATTEMPTS, '/teams');
    const r = await runCli(['scorecard', '--all', '--team', 'Team One', '--sp', 'sales-rep', '-o', 'ndjson'], { env: faultEnv(server) });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).not.toContain('No complete answer');
    expect(server.log.filter((l) => l === 'GET /teams')).toHaveLength(CLIENT_ATTEMPTS + 1);
  }, 30_000);
});

/**
 * Issue 31 (round three), against a fault server of our own
 * (test/helpers/fault-server.ts): ids as strings, lists that change while
 * they are read, bad list pages.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { type FaultServer, faultEnv, seed, send, startFaultServer } from '../helpers/fault-server.js';
import { runCli } from '../helpers/cli.js';
import { humanStderr } from '../helpers/stderr.js';
import { ndjsonLines } from '../helpers/ndjson.js';

let server: FaultServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const lines = ndjsonLines;

describe('finding 3: ids sent as numeric strings', () => {
  it('report counts every accepted invitation and its scorecard', async () => {
    server = await startFaultServer({ idsAsStrings: true });
    seed(server, 300, { accepted: 120 });
    const r = await runCli(['report', '--sp', 'sales-rep', '-o', 'json'], { env: faultEnv(server) });
    expect(r.code, r.stderr).toBe(0);
    const doc = JSON.parse(r.stdout) as { total: { invited: number; accepted: number; completed: number } };
    expect(doc.total).toMatchObject({ invited: 300, accepted: 120, completed: 120 });
    expect(r.stderr).toContain('300 invitations (total_count 300): 120 counted with their scorecard, 180 not accepted yet, 0 failed');
  });

  it('an id that is neither a number nor a numeric string ends the report with exit 1, never a skip', async () => {
    server = await startFaultServer();
    seed(server, 60, { accepted: 20 });
    server.faults.push((req, res) => {
      if (req.path !== '/invitations') return false;
      const cap = req.query.has('email') ? 150 : 50;
      const all = [...server!.invitations].reverse();
      const m = all.filter((i) => !req.query.get('email') || i.email.includes(req.query.get('email')!));
      const data = m.slice(0, cap).map((i, k) => ({ object: 'invitation_list_item', id: i.id, first_name: 'F', last_name: 'L', email: i.email, created_at: i.created_at, accepted_at: null, assessment_url: null, test_taker_id: k === 3 ? 'n/a' : i.test_taker_id, custom_id: null, person_id: null, team: { id: 1, display_name: 'Team One' }, account: { id: 1, display_name: 'A' } }));
      return send(res, 200, { mode: 'live', object: 'list', total_count: m.length, has_more: m.length > cap, data });
    });
    const r = await runCli(['report', '--sp', 'sales-rep', '-o', 'json'], { env: faultEnv(server) });
    expect(r.code).toBe(1);
    expect(humanStderr(r.stderr)).toContain('"n/a" as the test_taker_id');
    expect(r.stdout).toBe('');
  });

  it('test-takers list --all and scorecard --all read string ids', async () => {
    server = await startFaultServer({ idsAsStrings: true });
    seed(server, 400, { accepted: 200 });
    const list = await runCli(['test-takers', 'list', '--all', '-o', 'ndjson'], { env: faultEnv(server) });
    expect(list.code, list.stderr).toBe(0);
    expect(new Set(lines(list.stdout).map((x) => Number(x.id))).size).toBe(200);
    const cards = await runCli(['scorecard', '--all', '--sp', 'sales-rep', '-o', 'ndjson'], { env: faultEnv(server) });
    expect(cards.code, cards.stderr).toBe(0);
    expect(lines(cards.stdout)).toHaveLength(200);
  });
});

describe('finding 4: --all exact under churn', () => {
  it('an item that exists throughout is not replaced by one created during the run', async () => {
    server = await startFaultServer();
    const s = server;
    // 200 invitations: the oldest at @c, then alternately @a and @b.
    seed(s, 200, { email: (i) => (i === 0 ? 'old0@c.example' : `p${i}@${i % 2 ? 'a' : 'b'}.example`) });
    const oldest = s.invitations[0].id;
    let churned = false;
    s.afterList = (req) => {
      if (churned || req.path !== '/invitations' || req.query.has('email')) return;
      churned = true;
      // One created, one removed (already listed): the total stays the same.
      s.create({ email: 'new1@a.example' });
      const gone = [...s.invitations].reverse().find((i) => i.email.endsWith('@b.example'))!;
      s.remove(gone.id);
    };
    const r = await runCli(['invitations', 'list', '--all', '-o', 'ndjson'], { env: faultEnv(s) });
    const ids = lines(r.stdout).map((x) => x.id);
    // Exact or loudly wrong: never exit 0 without the oldest one.
    if (r.code === 0) expect(ids).toContain(oldest);
    expect(r.code, r.stderr).toBe(0);
    expect(new Set(ids).size).toBe(ids.length);
    expect(r.stderr).toContain('1 created during the run');
  });
});

describe('finding 5: invitations created while test takers are exported', () => {
  async function inviting(minimal: boolean) {
    server = await startFaultServer({ minimal });
    const s = server;
    seed(s, 400, { accepted: 150 });
    let k = 0;
    // Someone invites all the while: a new invitation after every list request.
    s.afterList = () => void s.create({ email: `during${k++}@d${k % 5}.example` });
    return s;
  }
  const takers = (s: FaultServer) => s.invitations.filter((i) => i.test_taker_id !== null).map((i) => i.test_taker_id).sort();

  it('test-takers list --all (items without an email: the invitations guide) exits 0, exact', async () => {
    const s = await inviting(true);
    const want = takers(s);
    const r = await runCli(['test-takers', 'list', '--all', '-o', 'ndjson'], { env: faultEnv(s) });
    expect(r.code, r.stderr).toBe(0);
    expect(lines(r.stdout).map((x) => x.id).sort()).toEqual(want);
  });

  it('scorecard --all exits 0, exact', async () => {
    const s = await inviting(true);
    const want = takers(s);
    const r = await runCli(['scorecard', '--all', '--sp', 'sales-rep', '-o', 'ndjson'], { env: faultEnv(s) });
    expect(r.code, r.stderr).toBe(0);
    expect(lines(r.stdout).map((x) => x.test_taker_id).sort()).toEqual(want);
  });

  it('report exits 0 and reports the invitations created during the run', async () => {
    const s = await inviting(false);
    const r = await runCli(['report', '--sp', 'sales-rep', '-o', 'json'], { env: faultEnv(s) });
    expect(r.code, r.stderr).toBe(0);
    const doc = JSON.parse(r.stdout) as { total: { accepted: number; completed: number } };
    expect(doc.total).toMatchObject({ accepted: 150, completed: 150 });
    expect(r.stderr).toMatch(/\(total_count 400; \d+ created during the run\)/);
  });

  it('invitations list --all exits 0 and says how many were created during the run', async () => {
    const s = await inviting(false);
    const before = s.invitations.map((i) => i.id);
    const r = await runCli(['invitations', 'list', '--all', '-o', 'ndjson'], { env: faultEnv(s) });
    expect(r.code, r.stderr).toBe(0);
    const got = new Set(lines(r.stdout).map((x) => x.id));
    for (const id of before) expect(got.has(id)).toBe(true);
    expect(r.stderr).toMatch(/\(total_count 400; \d+ created during the run\)/);
  });
});

describe('finding 12: a bad list page is asked again like a 502', () => {
  for (const [what, body, type] of [
    ['an HTML page', '<html><head><title>502 Bad Gateway</title></head><body>nginx</body></html>', 'text/html'],
    ['half a JSON body', '{"mode":"live","object":"list","total_count":400,"has_more":true,"data":[{"object":"invitation_li', 'application/json'],
  ] as const) {
    it(`${what} on one list page: the export is exact, exit 0`, async () => {
      server = await startFaultServer();
      const s = server;
      seed(s, 400);
      let bad = 0;
      s.faults.push((req, res) => {
        // The third list request, once: a 200 with a body that is not the list.
        if (req.path !== '/invitations' || req.nth !== 3) return false;
        bad++;
        res.writeHead(200, { 'content-type': type });
        res.end(body);
        return true;
      });
      const r = await runCli(['invitations', 'list', '--all', '-o', 'ndjson'], { env: faultEnv(s) });
      expect(bad).toBe(1);
      expect(r.code, r.stderr).toBe(0);
      expect(new Set(lines(r.stdout).map((x) => x.id)).size).toBe(400);
    }, 30_000);
  }
});

describe('finding 11: a very long Retry-After on a few requests', () => {
  it('does not stall the run: the other ids go on, the waiting ones come back, and what waits is said', async () => {
    server = await startFaultServer();
    const s = server;
    seed(s, 200, { accepted: 200 });
    const slow = new Set(s.invitations.filter((_, i) => i % 20 === 0).map((i) => String(i.test_taker_id)));
    const asked = new Map<string, number>();
    const times: number[] = [];
    const started = Date.now();
    s.faults.push(async (req, res) => {
      if (!req.path.endsWith('/scorecard')) return false;
      const id = req.path.split('/')[2];
      const n = (asked.get(id) ?? 0) + 1;
      asked.set(id, n);
      // One id in twenty: 429 with a day's Retry-After, the first time it is asked.
      if (slow.has(id) && n === 1) return send(res, 429, { error: 'Too many requests' }, { 'retry-after': '86400' });
      await new Promise((r) => setTimeout(r, 40));
      if (!slow.has(id)) times.push(Date.now() - started);
      return false;
    });
    const r = await runCli(['scorecard', '--all', '--sp', 'sales-rep', '-o', 'ndjson'], { env: faultEnv(s) });
    expect(r.code, r.stderr).toBe(0);
    expect(lines(r.stdout)).toHaveLength(200);
    // The 190 others were all fetched within a few seconds, not behind the waiting ones.
    expect(Math.max(...times)).toBeLessThan(4000);
    expect(r.stderr).toMatch(/\d+ test takers? waits? on the service's Retry-After \(it asked for up to 86400 s\): each is asked again within 10 s/);
  }, 60_000);
});

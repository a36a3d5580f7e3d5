/**
 * Issue 31 (round three), bulk invite against a fault server of our own
 * (test/helpers/fault-server.ts): a 201 without an id (finding 6), and a
 * --resume whose CSV lost rows (finding 7).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type FaultServer, faultEnv, startFaultServer } from '../helpers/fault-server.js';
import { runCli } from '../helpers/cli.js';
import { answerWithoutId, inviteArgs, people, results, unseenWithoutId } from './helpers/no-id.js';

let server: FaultServer | undefined;
let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'jobfit-r3-bulk-'));
});
afterEach(async () => {
  await server?.close();
  server = undefined;
  rmSync(dir, { recursive: true, force: true });
});

describe('finding 6: a 201 without an id', () => {
  it('is resolved by looking the email up: created, with the real invitation id', async () => {
    server = await startFaultServer();
    const s = server;
    // Every second POST.
    answerWithoutId(s, { which: (req) => req.nth % 2 === 0, whole: true });
    const csv = people(dir, 6);
    const out = join(dir, 'out.csv');
    const r = await runCli(inviteArgs(csv, out), { env: faultEnv(s) });
    expect(r.code, r.stderr).toBe(0);
    const rows = results(out);
    expect(rows).toHaveLength(6);
    for (const row of rows) {
      expect(row.status).toBe('created');
      expect(row.invitation_id).toBe(String(s.invitations.find((i) => i.email === row.Email)!.id));
    }
    // Never sent twice.
    expect(s.invitations).toHaveLength(6);
  });

  it('when the lookup does not find it either, the row is "unknown" (exit non-zero), and --resume settles it without sending again', async () => {
    server = await startFaultServer();
    const s = server;
    const lookup = unseenWithoutId(s);
    const csv = people(dir, 2);
    const out = join(dir, 'out.csv');
    const args = inviteArgs(csv, out);
    const first = await runCli(args, { env: faultEnv(s) });
    expect(first.code).not.toBe(0);
    expect(results(out).map((x) => x.status)).toEqual(['unknown', 'unknown']);
    lookup.reveal();
    const again = await runCli([...args, '--resume'], { env: faultEnv(s) });
    expect(again.code, again.stderr).toBe(0);
    const rows = results(out);
    expect(rows.map((x) => x.status)).toEqual(['created', 'created']);
    expect(rows.map((x) => x.invitation_id)).toEqual(s.invitations.map((i) => String(i.id)));
    expect(s.invitations).toHaveLength(2);
  });
});

describe('finding 7: --resume with a shortened CSV', () => {
  it("keeps the sent rows' results and says so", async () => {
    server = await startFaultServer();
    const s = server;
    const stop = new AbortController();
    s.faults.push((req) => {
      // Ctrl-C once six invitations are made.
      if (req.method === 'POST' && req.nth === 6) setImmediate(() => stop.abort());
      return false;
    });
    const csv = people(dir, 10);
    const out = join(dir, 'out.csv');
    const args = inviteArgs(csv, out);
    const first = await runCli(args, { env: faultEnv(s), signal: stop.signal });
    expect(first.code).toBe(130);
    const sent = s.invitations.length;
    expect(sent).toBeGreaterThanOrEqual(6);
    // The file loses its last rows, among them rows already sent.
    people(dir, 4);
    const again = await runCli([...args, '--resume'], { env: faultEnv(s) });
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toMatch(/has 4 rows, fewer than the earlier run's 10: the results of the \d+ rows? it sent past the end are kept/);
    const rows = results(out);
    expect(rows).toHaveLength(sent);
    for (const inv of s.invitations) {
      const row = rows.find((x) => x.Email === inv.email);
      expect(row, inv.email).toBeDefined();
      expect(row!.status).toBe('created');
      expect(row!.invitation_id).toBe(String(inv.id));
    }
    expect(s.invitations).toHaveLength(sent);
  });
});

describe('finding 12: the duplicate check of a 1,000,000-row dry run in flat memory', () => {
  it('EmailIndex finds every repeat, through its growth, and nothing else', async () => {
    const { EmailIndex } = await import('../../src/bulk/email-index.js');
    const ix = new EmailIndex();
    const n = 200_000;
    for (let i = 0; i < n; i++) {
      const e = `p${i}@x${i % 97}.example`;
      expect(ix.get(e)).toBeUndefined();
      ix.set(e, i);
    }
    for (let i = 0; i < n; i += 997) expect(ix.get(`p${i}@x${i % 97}.example`)).toBe(i);
    ix.set('p5@x5.example', 12345);
    expect(ix.get('p5@x5.example')).toBe(5);
    expect(ix.get('nobody@x.example')).toBeUndefined();
    // The peak memory of the whole dry run is measured by bench/invite/dry-run-memory.mjs (/usr/bin/time -v).
  });
});

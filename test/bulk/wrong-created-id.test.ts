/**
 * Issue 43 (round four), bulk invite against the fault server of our own
 * (test/helpers/fault-server.ts, test/faults/hostile.ts wrongCreatedId): a
 * 201 carrying another invitation's id was recorded as the row's id (exit 0);
 * a 201 whose id is 0 or "pending" made the row "failed" and the run said the
 * rows were not invited, though all were created. Each row's id is now the
 * one its email finds, and every row created is said so.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type FaultServer, faultEnv, INVITER, startFaultServer } from '../helpers/fault-server.js';
import { runCli } from '../helpers/cli.js';
import { wrongCreatedId } from '../faults/hostile.js';
import { inviteArgs, people, results } from './helpers/no-id.js';

let server: FaultServer | undefined;
let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'jobfit-r4-bulk-'));
});
afterEach(async () => {
  await server?.close();
  server = undefined;
  rmSync(dir, { recursive: true, force: true });
});

/** Every tenth row (p10, p20, …) of `n` gets the odd 201. */
const tenth = (email: string) => /^p\d*0@/.test(email);

async function run(n: number, id: (created: number) => unknown) {
  server = await startFaultServer();
  const s = server;
  // Someone invited before the run: the id a wrong 201 names.
  const other = s.create({ email: 'someone.else@r3.example' });
  wrongCreatedId(s, tenth, (created) => id(created) ?? other.id);
  const csv = people(dir, n);
  const out = join(dir, 'out.csv');
  const r = await runCli([...inviteArgs(csv, out), '--concurrency', '4'], { env: faultEnv(s) });
  return { s, r, rows: results(out), other };
}

describe('a 201 with a wrong id', () => {
  it("another invitation's id: every row records the id of the invitation its email has", async () => {
    const { s, r, rows, other } = await run(100, () => undefined);
    expect(r.code, r.stderr).toBe(0);
    expect(rows).toHaveLength(100);
    for (const row of rows) {
      expect(row.status).toBe('created');
      expect(row.invitation_id).toBe(String(s.invitations.find((i) => i.email === row.Email)!.id));
    }
    expect(rows.map((x) => x.invitation_id)).not.toContain(String(other.id));
    // Never sent twice.
    expect(s.invitations).toHaveLength(101);
  });

  it.each([
    ['0', 0],
    ['"pending"', 'pending'],
  ])('id %s: the rows are created with their real id, and no row is said not invited', async (_name, bad) => {
    const { s, r, rows } = await run(200, () => bad);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).not.toMatch(/not invited|failed: [1-9]/);
    expect(rows.filter((x) => x.status === 'created')).toHaveLength(200);
    for (const row of rows) expect(row.invitation_id).toBe(String(s.invitations.find((i) => i.email === row.Email)!.id));
    expect(s.invitations).toHaveLength(201);
  });
});

describe('the duplicate check and the Kelvin sign', () => {
  it('a valid kelvin@… row is not a duplicate of an invalid row written with the Kelvin sign (U+212A)', async () => {
    server = await startFaultServer();
    const csv = join(dir, 'kelvin.csv');
    writeFileSync(csv, 'First Name,Last Name,Email\nK,Sign,\u212Aelvin@r4.example\nKel,Vin,kelvin@r4.example\nAn,Other,KELVIN@r4.example\n');
    const r = await runCli(['invite', '--csv', csv, '--created-by', INVITER, '--dry-run'], { env: faultEnv(server) });
    const out = r.stdout + r.stderr;
    // Row 2 (kelvin@) is valid; row 3 (KELVIN@, the same address) is its duplicate; row 1 is invalid on its own.
    expect(out).toContain('3 rows, 1 valid, 2 invalid.');
    expect(out).toMatch(/\(row 3, KELVIN@r4\.example\): email: Duplicate email in the file \(first on row 2\)/);
    expect(out).not.toMatch(/\(row 2, /);
    expect(out).not.toContain('first on row 1');
  });
});

/**
 * Issue 43, item 1: the hostile behaviours of round four run against every
 * command they can reach. The cells are those of test/faults/hostile-table.ts
 * marked HM (the other cells name the test that holds them); each case runs
 * the command against the fault server without the fault, then with it, and
 * holds it to "exact or loud": exit 0 with the same data, or a non-zero exit
 * with a sentence, no stack trace and no `--out` put in place. Never exit 0
 * with other data. In-process, a few hundred people.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type FaultServer, faultEnv, seed, startFaultServer } from '../helpers/fault-server.js';
import { runCli } from '../helpers/cli.js';
import { inviteArgs, people, results } from '../bulk/helpers/no-id.js';
import { jobFitRoute } from './lists.js';
import { anyGet, foldingEmailFilter, otherPerson, staleOnReuse } from './hostile.js';
import { type Behaviour, hmCases } from './hostile-table.js';

let server: FaultServer | undefined;
let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'jobfit-hostile-'));
});
afterEach(async () => {
  await server?.close();
  server = undefined;
  rmSync(dir, { recursive: true, force: true });
});

/** 3 in 40 emails with an accented letter before the `@` (what a folding filter mixes up with its plain twin). */
const email = (i: number) => `${['rene', 'jose', 'ana', 'lui'][i % 4]}${i}${(i % 40 < 3 ? 'áéíóú' : 'aeiou')[(i >> 2) % 5]}@d${i % 3}.example`;

/** `n` invitations, two thirds accepted with results (the lists need several pages: 1,200). */
async function peopleOf(n: number): Promise<FaultServer> {
  const s = await startFaultServer();
  seed(s, n, { accepted: Math.floor((n * 2) / 3), email });
  jobFitRoute(s);
  return s;
}

const takerIds = (s: FaultServer) =>
  s.invitations
    .filter((i) => i.completed)
    .slice(0, 40)
    .map((i) => String(i.test_taker_id));

/** How many times the fault changed an answer. */
type Armed = (s: FaultServer) => () => number;

/** The fault's first handler (the one just put in front), counted when it answers. */
function countFront(s: FaultServer): () => number {
  const f = s.faults[0];
  let n = 0;
  s.faults[0] = async (req, res) => {
    const answered = await f(req, res);
    if (answered) n++;
    return answered;
  };
  return () => n;
}

const FAULTS: Record<Exclude<Behaviour, 'disk' | 'lock' | 'id201'>, Armed> = {
  stale: (s) => {
    staleOnReuse(s, 0.2, 5, anyGet);
    return () => s.staleSent;
  },
  other: (s) => {
    otherPerson(s, { rate: 0.1, items: true });
    return countFront(s);
  },
  fold: (s) => {
    foldingEmailFilter(s);
    return () => s.log.filter((l) => l.includes('email=')).length;
  },
};

const EXPORTS: Record<string, (s: FaultServer) => string[]> = {
  'invitations list --all': () => ['invitations', 'list', '--all', '-o', 'ndjson'],
  'test-takers list --all': () => ['test-takers', 'list', '--all', '-o', 'ndjson'],
  'scorecard --all': () => ['scorecard', '--all', '--sp', 'sales-rep', '-o', 'ndjson'],
  'scorecard IDS': (s) => ['scorecard', ...takerIds(s), '--sp', 'sales-rep', '-o', 'ndjson'],
  'job-fit --all': () => ['job-fit', '--all', '-o', 'ndjson'],
  'job-fit IDS': (s) => ['job-fit', ...takerIds(s), '-o', 'ndjson'],
  'report (html/json/csv/xlsx)': () => ['report', '--sp', 'sales-rep', '-o', 'json'],
};

/** The file's content, lines sorted (an export's rows may come in any order). */
const content = (file: string) => readFileSync(file, 'utf8').split('\n').sort().join('\n');

/** Loud: one sentence on stderr, no stack trace, nothing put in place. */
function expectLoud(r: { code: number; stderr: string }, out: string): void {
  expect(r.stderr.trim(), 'a non-zero exit says why').not.toBe('');
  expect(r.stderr).not.toMatch(/\n\s+at /);
  expect(existsSync(out), 'no --out put in place by a failed run').toBe(false);
}

async function exportCase(command: string, behaviour: keyof typeof FAULTS): Promise<void> {
  const s = (server = await peopleOf(command.includes('list') ? 1200 : 300));
  const args = EXPORTS[command](s);
  const env = faultEnv(s);
  const clean = join(dir, 'clean.out');
  const c = await runCli([...args, '--out', clean], { env });
  expect(c.code, c.stderr).toBe(0);
  const fired = FAULTS[behaviour](s);
  const out = join(dir, 'hostile.out');
  const r = await runCli([...args, '--out', out], { env });
  expect(fired(), 'the fault reached the command').toBeGreaterThan(0);
  if (r.code !== 0) return expectLoud(r, out);
  expect(content(out), 'exit 0: exactly the data of the clean run').toBe(content(clean));
}

async function inviteCase(behaviour: keyof typeof FAULTS): Promise<void> {
  const s = (server = await startFaultServer());
  seed(s, 60, { accepted: 20 });
  // A stale answer to any request here: a 201 (another row's invitation) or a confirming list.
  const fired = behaviour === 'stale' ? (staleOnReuse(s, 0.2, 5, () => true), () => s.staleSent) : FAULTS[behaviour](s);
  const out = join(dir, 'results.csv');
  const r = await runCli([...inviteArgs(people(dir, 120), out), '--concurrency', '4'], { env: faultEnv(s) });
  expect(fired(), 'the fault reached the command').toBeGreaterThan(0);
  // Never sent twice, whatever the run said.
  expect(new Set(s.invitations.map((i) => i.email)).size).toBe(s.invitations.length);
  if (r.code !== 0) {
    expect(r.stderr).not.toMatch(/\n\s+at /);
    expect(r.stderr.trim()).not.toBe('');
  } else expect(s.invitations).toHaveLength(180);
  // Every id recorded is the id of the row's own invitation.
  for (const row of results(out)) {
    if (row.invitation_id) expect(row.invitation_id, row.Email).toBe(String(s.invitations.find((i) => i.email === row.Email)!.id));
    if (r.code === 0) expect(row.status).toBe('created');
  }
}

describe('hostile matrix (docs/faults.md): exact or loud', () => {
  it.each(hmCases())('%s', async (cell) => {
    const [command, behaviour] = cell.split('|') as [string, keyof typeof FAULTS];
    if (command === 'bulk invite') return inviteCase(behaviour);
    return exportCase(command, behaviour);
  });
});

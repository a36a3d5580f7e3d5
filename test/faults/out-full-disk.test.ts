/**
 * Issue 43, item 3: one writer path for every `--out`. A full disk under
 * `--out` of every kind: one-page lists, `--all` lists, scorecard, job-fit
 * (the long rows and the HTML page of a few ids), report (HTML, JSON, CSV,
 * xlsx), in every format. Each must end with exit 1 and one sentence naming
 * the file and ENOSPC, the old file as it was and nothing else left beside it.
 *
 * The disk is the 64 KiB tmpfs of test/helpers/full-disk.ts, filled up to its
 * last 8 KiB (less for a small export) before each run: each export is first
 * written to a roomy folder to know its size. Before the fix, the one-page lists and the
 * HTML pages renamed a cut file (8,192 bytes) into place and exited 0.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect } from 'vitest';
import { type FaultServer, faultEnv, seed, startFaultServer } from '../helpers/fault-server.js';
import { runCli } from '../helpers/cli.js';
import { fillUpTo, fullDisk } from '../helpers/full-disk.js';
import { jobFitRoute } from './lists.js';

/** Room left on the disk when a run starts: less than the export, in the disk's 4 KiB pages (none for an export under a page). */
const roomFor = (size: number) => Math.min(8192, Math.floor((size - 1) / 4096) * 4096);

let tmp: string;
let server: FaultServer;
let roomy: string;

beforeAll(async () => {
  tmp = mkdtempSync(join(tmpdir(), 'jobfit-out-full-'));
  roomy = mkdtempSync(join(tmp, 'roomy-'));
  server = await startFaultServer();
  seed(server, 600, { accepted: 400, email: (i) => `someone.with.a.long.address.${i}@department${i % 9}.example` });
  for (const inv of server.invitations) inv.custom_id = `group-${inv.id % 40}`;
  jobFitRoute(server);
});
afterAll(async () => {
  await server?.close();
  rmSync(tmp, { recursive: true, force: true });
});

const someIds = () =>
  server.invitations
    .filter((i) => i.completed)
    .slice(0, 40)
    .map((i) => String(i.test_taker_id));

const KINDS: Array<[string, () => string[]]> = [
  ['invitations list -o json (one page)', () => ['invitations', 'list', '-o', 'json']],
  ['test-takers list -o csv (one page)', () => ['test-takers', 'list', '-o', 'csv']],
  ['invitations list -o ndjson (one page)', () => ['invitations', 'list', '-o', 'ndjson']],
  ['invitations list --all -o ndjson', () => ['invitations', 'list', '--all', '-o', 'ndjson']],
  ['test-takers list --all -o xlsx', () => ['test-takers', 'list', '--all', '-o', 'xlsx']],
  ['scorecard --all -o csv', () => ['scorecard', '--all', '--sp', 'sales-rep', '-o', 'csv']],
  ['scorecard --all -o json', () => ['scorecard', '--all', '--sp', 'sales-rep', '-o', 'json']],
  ['job-fit --all -o csv', () => ['job-fit', '--all', '-o', 'csv']],
  ['job-fit IDS -o html', () => ['job-fit', ...someIds(), '-o', 'html']],
  ['report -o html', () => ['report', '--sp', 'sales-rep', '--group-by', 'custom_id', '-o', 'html', '--top', 'all']],
  ['report -o json', () => ['report', '--sp', 'sales-rep', '--group-by', 'custom_id', '-o', 'json']],
  ['report -o csv', () => ['report', '--sp', 'sales-rep', '--group-by', 'custom_id', '-o', 'csv']],
  ['report -o xlsx', () => ['report', '--sp', 'sales-rep', '--group-by', 'custom_id', '-o', 'xlsx']],
];

describe('--out on a full disk, every kind', () => {
  const { onTmpfs, emptied } = fullDisk(() => tmp);
  onTmpfs.each(KINDS)('%s: exit 1, one sentence, the old file kept, nothing left', async (_name, args) => {
    const env = faultEnv(server, { JOBFIT_MAX_RETRIES: '0' });
    // The same export where there is room: the room left below is less than it.
    const whole = join(roomy, `${readdirSync(roomy).length}.out`);
    const ok = await runCli([...args(), '--out', whole], { env });
    expect(ok.code, ok.stderr).toBe(0);
    const room = roomFor(statSync(whole).size);

    const full = emptied();
    const file = join(full, 'out');
    writeFileSync(file, 'the old file\n');
    fillUpTo(full, room);
    const r = await runCli([...args(), '--out', file], { env });
    expect(r.code, r.stderr).toBe(1);
    expect(r.stderr).toContain(`Could not write ${file}: the disk is full (ENOSPC); it was left as it was.`);
    expect(r.stderr).not.toMatch(/\n\s+at /);
    expect(readFileSync(file, 'utf8')).toBe('the old file\n');
    expect(readdirSync(full).sort()).toEqual(['.filler', 'out']);
  });
});

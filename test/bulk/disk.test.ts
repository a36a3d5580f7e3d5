/**
 * A full or read-only disk under the results file and journal: a small tmpfs
 * in a private mount namespace (`unshare -rm`; skipped where the machine does
 * not allow one). The stub runs in its own process on a normal disk.
 */
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cannotMountTmpfs, inPrivateTmpfs } from '../helpers/full-disk.js';
import { skipBecause } from '../helpers/skip.js';
import { countInvitations, INVITER, writePeople } from './helpers/data.js';
import { type StubProcess, startStubProcess } from './helpers/stub-process.js';

const ROOT = resolve(import.meta.dirname, '../..');
const BIN = join(ROOT, 'bin/jobfit.js');

const TMPFS = cannotMountTmpfs('namespace') === undefined;
let dir: string;
let stub: StubProcess;

beforeAll(async () => {
  if (!TMPFS) return;
  if (!existsSync(join(ROOT, 'dist/main.js'))) execFileSync('npm', ['run', 'build'], { cwd: ROOT, stdio: 'ignore' });
  dir = mkdtempSync(join(tmpdir(), 'jobfit-bulk-disk-'));
  stub = await startStubProcess({ configDir: join(dir, 'config') });
}, 120_000);
afterAll(async () => {
  await stub?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const env = () => ({ ...process.env, JOBFIT_BASE_URL: stub.url, JOBFIT_API_KEY: stub.liveKey, JOBFIT_CONFIG_DIR: join(dir, 'config'), NO_COLOR: '1' });

/**
 * Runs `jobfit invite ARGS` with a tmpfs of `size` mounted at `mnt` (read-only
 * when asked) in a private mount namespace; what the run left on it is copied
 * to `save` before the namespace goes away.
 */
function inTmpfs(mnt: string, save: string, size: string, args: string[], readOnly = false): Promise<{ code: number | null; stderr: string }> {
  const [cmd, argv] = inPrivateTmpfs(mnt, size, [process.execPath, BIN, 'invite', ...args], { save, readOnly });
  const child = spawn(cmd, argv, { env: env(), stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (d) => {
    stderr += d;
  });
  child.stdout.resume();
  return new Promise((res) => child.on('exit', (code) => res({ code, stderr })));
}

describe.skipIf(skipBecause(!TMPFS && 'the full-disk test cannot mount a tmpfs here (needs root or unshare)'))('a full or read-only disk', () => {
  it('a full disk stops the run naming the file, the cause and the resume command; no row left without its "send" line', async () => {
    const N = 3000;
    const csv = join(dir, 'full.csv');
    writePeople(csv, N, 'full');
    const mnt = join(dir, 'mnt-full');
    const save = join(dir, 'saved-full');
    const out = join(mnt, 'full.results.csv');
    const r = await inTmpfs(mnt, save, '192k', ['--csv', csv, '--out', out, '--created-by', INVITER]);
    expect(r.code, r.stderr).toBe(1);
    expect(r.stderr).toMatch(new RegExp(`Cannot write ${mnt}/\\S+: the disk is full \\(ENOSPC\\)\\. The run stopped: [\\d,]+ rows were sent and are in the journal`));
    expect(r.stderr).toContain(`jobfit invite --csv ${csv} --out ${out} --resume --created-by ${INVITER}`);
    expect(r.stderr).not.toMatch(/\n\s+at /);

    // Resume on a disk with room (the journal moved with its results path): every row is created, none "exists".
    const room = join(dir, 'room');
    mkdirSync(room);
    const outRoom = join(room, 'full.results.csv');
    cpSync(join(save, 'full.results.csv.journal.ndjson'), `${outRoom}.journal.ndjson`);
    const sent = new Set(
      readFileSync(`${outRoom}.journal.ndjson`, 'utf8')
        .split('\n')
        .filter((l) => l.startsWith('{"t":"send"'))
        // A line the full disk cut short is skipped, as readJournal skips it: its request was never sent
        // (a row's "send" line is written before its request). Where the disk fills moves with the timing.
        .flatMap((l) => {
          try {
            return [JSON.parse(l).row as number];
          } catch {
            return [];
          }
        }),
    );
    const before = await countInvitations(stub.dataDir, 'full');
    expect(before.total).toBeGreaterThan(0);
    expect(before.total).toBeLessThan(N);
    // Nothing reached the service without its "send" line.
    expect(before.total).toBeLessThanOrEqual(sent.size);
    const resumed = spawnSync(process.execPath, [BIN, 'invite', '--csv', csv, '--out', outRoom, '--created-by', INVITER, '--resume'], { env: env(), encoding: 'utf8' });
    expect(resumed.status, resumed.stderr).toBe(0);
    expect(resumed.stderr).toMatch(/3,000 rows: 3,000 created, 0 exists, 0 invalid, 0 failed, 0 not sent/);
    expect(await countInvitations(stub.dataDir, 'full')).toEqual({ total: N, distinct: N });
  }, 60_000);

  it('a read-only folder is named as such, nothing is sent', async () => {
    const csv = join(dir, 'ro.csv');
    writePeople(csv, 10, 'readonly');
    const mnt = join(dir, 'mnt-ro');
    const out = join(mnt, 'ro.results.csv');
    const r = await inTmpfs(mnt, join(dir, 'saved-ro'), '64k', ['--csv', csv, '--out', out, '--created-by', INVITER], true);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain(`Cannot write the results file ${out}: the file system is read-only (EROFS); nothing was sent.`);
    expect(await countInvitations(stub.dataDir, 'readonly')).toEqual({ total: 0, distinct: 0 });
  }, 30_000);
});

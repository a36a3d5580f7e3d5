/**
 * Issue 31, findings 1 and 2: every write is checked.
 *
 * 1. An export that stops while writing into a pipe ends with exit 1 and the
 *    `#INCOMPLETE EXPORT` line (it exited 13: drained() waited for a 'drain'
 *    that had already fired). The fault: the fault server in front of the
 *    stub (`upstream`), saying one more than it has (`total_count` + 1).
 * 2. A full disk (a 64 KiB tmpfs, mounted as root) gives exit 1 with one
 *    sentence naming the file and the cause, for `> FILE`, `--out FILE` (the
 *    old file kept, nothing left behind) and `--errors FILE`.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INCOMPLETE_MARK } from '../../src/export/target.js';
import { type BuiltCli, buildCli } from '../e2e/built.js';
import { type FaultServer, startFaultServer } from '../helpers/fault-server.js';
import { type StartedStub, startStub } from '../helpers/stub.js';
import { fullDisk, runBuilt, runIntoFullFile } from '../helpers/full-disk.js';

let tmp: string;
let stub: StartedStub;
let liar: FaultServer;
let liarUrl: string;
let cli: BuiltCli;

beforeAll(async () => {
  tmp = mkdtempSync(join(tmpdir(), 'jobfit-write-errors-'));
  cli = buildCli();
  // About the probe's 2,209 invitations: many 64 KB writes, with requests between them.
  const seeded = cli.run(['stub', 'seed', '--test-takers', '2000', '--data', join(tmp, 'stub')]);
  expect(seeded.code, seeded.stderr).toBe(0);
  stub = await startStub({ dataDir: join(tmp, 'stub') });
  const origin = new URL(stub.url).origin;
  // Forwards to the stub; every list says it holds one item more than it does.
  liar = await startFaultServer({ upstream: origin });
  liar.rewrite = (_req, _status, text) => {
    try {
      const body = JSON.parse(text) as { object?: string; total_count?: number };
      if (body.object === 'list' && typeof body.total_count === 'number') {
        body.total_count += 1;
        return JSON.stringify(body);
      }
    } catch {
      // not JSON: passed on as it is
    }
    return text;
  };
  liarUrl = `${liar.url}/v2`;
}, 120_000);

afterAll(async () => {
  await liar?.close();
  await stub?.stop();
  cli?.close();
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

/**
 * The built CLI with stdout to `stdout`: 'pipe' (a real pipe(2), as a shell's
 * `|` makes, through `| cat`: node's own stdio pipes are socket pairs), or a
 * file descriptor. The code is the CLI's own, not cat's.
 */
function runTo(args: string[], baseUrl: string, stdout: 'pipe' | number) {
  return runBuilt(cli, args, { stdout, env: { JOBFIT_BASE_URL: baseUrl, JOBFIT_API_KEY: stub.keys[0].live_key, JOBFIT_MAX_RETRIES: '0' }, killAfterMs: 60_000 });
}

describe('1. an export that stops while writing into a pipe', () => {
  it('total_count one too high, -o ndjson into a pipe: exit 1 and the incomplete mark (not 13)', async () => {
    const r = await runTo(['invitations', 'list', '--all', '-o', 'ndjson'], liarUrl, 'pipe');
    expect(r.code, r.stderr).toBe(1);
    const lines = r.stdout.trimEnd().split('\n');
    // More than 64 KB went through the pipe before the stop: the case that hung.
    expect(r.stdout.length).toBeGreaterThan(65_536);
    expect(lines.at(-1)).toMatch(new RegExp(`^${INCOMPLETE_MARK}: [\\d,]+ invitations written before the run stopped`));
    expect(r.stderr).toMatch(/The output is incomplete/);
  }, 90_000);
});

describe('2. a full disk', () => {
  const { onTmpfs, emptied: needFull } = fullDisk(() => tmp);

  onTmpfs('-o ndjson > FULL/out: exit 1, one sentence naming the file and ENOSPC', async () => {
    const file = join(needFull(), 'out.ndjson');
    const r = await runIntoFullFile(file, (fd) => runTo(['invitations', 'list', '--all', '-o', 'ndjson'], stub.url, fd));
    expect(r.stderr).toMatch(/^([\d,]+) invitations \(total_count \1\): \1 handed to the output, 0 failed, in [\d.]+s \([\d,]+\/s\); a write to the output failed, so it is incomplete\.$/m);
  }, 90_000);

  onTmpfs('> FULL/out, and the run stops (total_count one too high): the stop line and the incomplete notice claim nothing written', async () => {
    const file = join(needFull(), 'out.ndjson');
    const r = await runIntoFullFile(file, (fd) => runTo(['invitations', 'list', '--all', '-o', 'ndjson'], liarUrl, fd));
    expect(r.stderr).toMatch(/^Stopped after [\d,]+ invitations(?: \(total_count [\d,]+\))?: [\d,]+ handed to the output, 0 failed, .*; a write to the output failed, so it is incomplete\.$/m);
    expect(r.stderr).toMatch(/^The output is incomplete: [\d,]+ invitations were handed to it before the run stopped, but a write to it failed/m);
    expect(r.stderr).not.toMatch(/\bwritten, 0 failed|were written before the run stopped/);
  }, 90_000);

  onTmpfs('--out FULL/out: exit 1, the old file kept, no temporary file left', async () => {
    const dir = needFull();
    const file = join(dir, 'out.ndjson');
    writeFileSync(file, 'yesterday\n');
    const r = await runTo(['invitations', 'list', '--all', '-o', 'ndjson', '--out', file], stub.url, 'pipe');
    expect(r.code, r.stderr).toBe(1);
    // -o ndjson: the error is one JSON line on stderr.
    expect(r.stderr).toContain(`"message":${JSON.stringify(`Could not write ${file}: the disk is full (ENOSPC); it was left as it was.`)}`);
    expect(readFileSync(file, 'utf8')).toBe('yesterday\n');
    expect(readdirSync(dir)).toEqual(['out.ndjson']);
  }, 90_000);

  onTmpfs('--errors FULL/err that cannot be written: non-zero, and it says so', async () => {
    const dir = needFull();
    // Fill the disk, leaving no room for the errors.
    const filler = join(dir, 'filler');
    spawnSync('dd', ['if=/dev/zero', `of=${filler}`, 'bs=1k', 'count=64'], { stdio: 'ignore' });
    const ids = join(tmp, 'ids.txt');
    writeFileSync(ids, `${Array.from({ length: 200 }, (_, i) => 990_000_000 + i).join('\n')}\n`);
    const errors = join(dir, 'errors.ndjson');
    const r = await runTo(['scorecard', '--ids-from', ids, '--sp', 'sales-rep', '-o', 'csv', '--errors', errors], stub.url, 'pipe');
    expect(r.code, r.stderr).not.toBe(0);
    expect(r.stderr).toContain(`Could not write --errors ${errors}: the disk is full (ENOSPC)`);
    expect(r.stderr).not.toMatch(/the failures are listed in/);
  }, 90_000);
});

/**
 * Issue 31, finding 1, on Ctrl-C: an export writing into a pipe that a slow
 * reader lets fill, stopped by SIGINT, ends with exit 130, the
 * `#INCOMPLETE EXPORT` line as the last line the reader gets, and an error
 * sentence on stderr. It exited 13 with neither once the pipe had been full:
 * the incomplete mark waited for a 'drain' that had already fired.
 *
 * The pipe is a real one (a FIFO is the kernel's pipe, as a shell's `|` makes;
 * node's own stdio pipes are socket pairs), the built binary writes into it,
 * and this file reads it slowly, a few KB at a time. The fault server in
 * front of the stub (`upstream`) answers the first ~200 KB of list pages, then
 * holds every request: the run is certainly still going when SIGINT arrives,
 * whatever the machine's speed.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { closeSync, constants, mkdtempSync, openSync, readSync, rmSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { INCOMPLETE_MARK } from '../../src/export/target.js';
import { type BuiltCli, buildCli } from '../e2e/built.js';
import { type FaultServer, startFaultServer } from '../helpers/fault-server.js';
import { type StartedStub, startStub } from '../helpers/stub.js';
import { humanStderr } from '../helpers/stderr.js';

/** Body bytes the gate passes on before it holds every request: three pipes' worth of rows. */
const PASS_BYTES = 200_000;

let tmp: string;
let stub: StartedStub;
let cli: BuiltCli;
let gate: FaultServer;
let gateUrl: string;
/** The gate's state for the current run. */
const gated = { passedBytes: 0, answered: 0, held: [] as ServerResponse[] };

beforeAll(async () => {
  tmp = mkdtempSync(join(tmpdir(), 'jobfit-sigint-pipe-'));
  cli = buildCli();
  // About 2,200 invitations: far more than a pipe (64 KiB) holds.
  const seeded = cli.run(['stub', 'seed', '--test-takers', '2000', '--data', join(tmp, 'stub')]);
  expect(seeded.code, seeded.stderr).toBe(0);
  stub = await startStub({ dataDir: join(tmp, 'stub') });
  const origin = new URL(stub.url).origin;
  gate = await startFaultServer({ upstream: origin });
  gate.faults.push((_req, res) => {
    if (gated.passedBytes < PASS_BYTES) return false;
    gated.held.push(res);
    return true;
  });
  gate.rewrite = (_req, _status, text) => {
    gated.passedBytes += text.length;
    gated.answered++;
    return text;
  };
  gateUrl = `${gate.url}/v2`;
}, 120_000);

afterEach(() => {
  for (const res of gated.held) res.destroy();
  Object.assign(gated, { passedBytes: 0, answered: 0, held: [] });
});

afterAll(async () => {
  await gate?.close();
  await stub?.stop();
  cli?.close();
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

/** Bytes per read, and the pause between reads: a reader far slower than the export. */
const BITE = 4096;
const PAUSE_MS = 20;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * One non-blocking read of the FIFO: the bytes, `null` when the pipe is empty
 * for now, or an empty buffer at its end (every writer gone).
 */
function bite(fd: number): Buffer | null {
  const buf = Buffer.alloc(BITE);
  try {
    return buf.subarray(0, readSync(fd, buf, 0, BITE, null));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EAGAIN') return null;
    throw err;
  }
}

interface Run {
  child: ChildProcess;
  readFd: number;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  stderr: () => string;
}

/** The built CLI, through the gate, with stdout the write end of a FIFO whose read end it returns. */
function startIntoFifo(args: string[]): Run {
  const fifo = join(tmp, `out-${process.hrtime.bigint()}.fifo`);
  const made = spawnSync('mkfifo', [fifo], { encoding: 'utf8' });
  if (made.status !== 0) throw new Error(`mkfifo failed: ${made.stderr}`);
  // The read end first, non-blocking (opening it does not wait for a writer); then the write end opens at once.
  const readFd = openSync(fifo, constants.O_RDONLY | constants.O_NONBLOCK);
  const writeFd = openSync(fifo, constants.O_WRONLY);
  const child = spawn(process.execPath, [cli.bin, ...args], {
    env: { PATH: process.env.PATH ?? '', HOME: join(cli.dir, 'home'), NO_COLOR: '1', JOBFIT_BASE_URL: gateUrl, JOBFIT_API_KEY: stub.keys[0].live_key },
    stdio: ['ignore', writeFd, 'pipe'],
  });
  // Only the child holds the write end now: the reader sees the end of the pipe when it exits.
  closeSync(writeFd);
  let stderr = '';
  child.stderr!.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.on('exit', (code, signal) => resolve({ code, signal })));
  return { child, readFd, exited, stderr: () => stderr };
}

/** The export has taken in every page the gate answered, and the gate holds its next request. */
function stalled(run: Run): boolean {
  const pages = (run.stderr().match(/^ {2}--all: /gm) ?? []).length;
  return gated.held.length > 0 && pages >= gated.answered;
}

/**
 * Reads the pipe slowly until its end (from the start, or only once SIGINT is
 * sent when `readBefore` is false); calls `interruptWhen` before each bite and
 * sends SIGINT the first time it says so. What was read, and how it ended.
 */
async function readSlowly(run: Run, readBefore: boolean, interruptWhen: (s: { emptyBites: number }) => boolean) {
  const timer = setTimeout(() => run.child.kill('SIGKILL'), 60_000);
  const chunks: Buffer[] = [];
  let emptyBites = 0;
  let sent = false;
  try {
    for (;;) {
      if (!sent && interruptWhen({ emptyBites })) {
        sent = true;
        run.child.kill('SIGINT');
      }
      // A run that ends by itself before SIGINT is read to its end, and fails below with what it said.
      if (!sent && !readBefore && run.child.exitCode === null) {
        await sleep(PAUSE_MS);
        continue;
      }
      const b = bite(run.readFd);
      if (b && b.length === 0) break;
      if (b) {
        chunks.push(b);
      }
      emptyBites = b ? 0 : emptyBites + 1;
      await sleep(PAUSE_MS);
    }
  } finally {
    clearTimeout(timer);
    closeSync(run.readFd);
  }
  const ended = await run.exited;
  return { ended, sent, text: Buffer.concat(chunks).toString('utf8'), stderr: run.stderr() };
}

/** The mark is the last line read, it counts exactly the whole rows before it, and stderr says what happened. */
function expectInterrupted(r: Awaited<ReturnType<typeof readSlowly>>): void {
  expect(r.sent, r.stderr).toBe(true);
  expect(r.ended, r.stderr).toEqual({ code: 130, signal: null });
  const lines = r.text.trimEnd().split('\n');
  const mark = lines.at(-1) ?? '';
  expect(mark).toMatch(new RegExp(`^${INCOMPLETE_MARK}: [\\d,]+ invitations written before the run stopped \\(interrupted\\)$`));
  const rows = lines.slice(0, -1);
  for (const l of rows) expect(() => JSON.parse(l)).not.toThrow();
  expect(Number(/: ([\d,]+) /.exec(mark)![1].replace(/,/g, ''))).toBe(rows.length);
  // More than a pipe holds went through it.
  expect(r.text.length).toBeGreaterThan(65_536);
  expect(r.stderr).toMatch(/^Stopped after [\d,]+ invitations/m);
  expect(r.stderr).toMatch(/^The output is incomplete: [\d,]+ invitations were written before the run stopped/m);
  expect(humanStderr(r.stderr)).toMatch(/^Error: Interrupted\.$/m);
}

describe('1. Ctrl-C during an export into a pipe', () => {
  const args = ['invitations', 'list', '--all', '-o', 'ndjson', '-v'];

  it('SIGINT while the pipe is full (nothing read yet): exit 130, the mark after the last row, an error sentence', async () => {
    const run = startIntoFifo(args);
    // The reader takes nothing until the export has written what the gate let through (three pipes' worth).
    const r = await readSlowly(run, false, () => stalled(run));
    expectInterrupted(r);
  }, 90_000);

  it('SIGINT after the slow reader caught up with a pipe that had been full: exit 130 and the mark (it exited 13)', async () => {
    const run = startIntoFifo(args);
    let ready = false;
    const r = await readSlowly(run, true, ({ emptyBites }) => {
      // Reading all along; once the export waits on the gate, read until the pipe stays empty.
      ready ||= stalled(run);
      return ready && emptyBites >= 5;
    });
    expectInterrupted(r);
  }, 90_000);
});

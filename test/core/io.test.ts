/**
 * src/core/io.ts against real descriptors: DescriptorOut (stdout and stderr
 * that are not terminals, written with a synchronous write on the fd) and
 * isTerminal (fstat first, node:tty only for a character device other than
 * /dev/null). Memory streams cannot show any of it: a short write, EAGAIN on
 * a pipe another process made non-blocking, EPIPE, ENOSPC are what the
 * kernel answers. The pipes are FIFOs (mkfifo), so that this process holds
 * the write end; the slow reader is a python3 child.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { closeSync, constants, existsSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DescriptorOut, SYNC_PIPE_BYTES, descriptorKind, isTerminal } from '../../src/core/io.js';
import { spawnPty } from '../helpers/pty.js';
import { skipBecause } from '../helpers/skip.js';
import { ROOT } from '../e2e/built.js';

let tmp: string;
let n = 0;
const fds = new Set<number>();

beforeAll(() => {
  tmp = mkdtempSync(join(tmpdir(), 'jobfit-io-'));
});
afterAll(() => {
  for (const fd of fds) closeQuietly(fd);
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

function closeQuietly(fd: number): void {
  try {
    closeSync(fd);
  } catch {
    // closed already (a socket took it over)
  }
  fds.delete(fd);
}
function track(fd: number): number {
  fds.add(fd);
  return fd;
}

/** A new FIFO and both its ends, opened in this process (the read end first, so that neither open waits). */
function fifo(writeFlags = 0): { path: string; r: number; w: number } {
  const path = join(tmp, `fifo-${++n}`);
  const made = spawnSync('mkfifo', [path]);
  expect(made.status, String(made.stderr)).toBe(0);
  const r = track(openSync(path, constants.O_RDONLY | constants.O_NONBLOCK));
  const w = track(openSync(path, constants.O_WRONLY | writeFlags));
  return { path, r, w };
}

/** What DescriptorOut told `failed`, and whether it built node's stream. */
function recorder() {
  const failures: NodeJS.ErrnoException[] = [];
  let streams = 0;
  return {
    failures,
    streams: () => streams,
    failed: (err: NodeJS.ErrnoException) => failures.push(err),
    noStream: () => {
      streams++;
      throw new Error('node stream asked for, and none was expected');
    },
    countStream: (make: () => NodeJS.WriteStream) => () => {
      streams++;
      return make();
    },
  };
}

const hasPython = spawnSync('python3', ['-c', 'pass']).status === 0;

describe('DescriptorOut', () => {
  it('a regular file: text and bytes arrive whole and in order, without node stream', () => {
    const file = join(tmp, 'out.txt');
    const fd = track(openSync(file, 'w'));
    const rec = recorder();
    const out = new DescriptorOut(fd, rec.noStream, rec.failed);
    const parts: Array<string | Uint8Array> = ['héllo ✓\n', Buffer.from([0x00, 0xff, 0x0a]), new Uint8Array([0x41, 0x42]), '', 'x'.repeat(300_000), '\nend\n'];
    for (const p of parts) expect(out.write(p)).toBe(true);
    closeQuietly(fd);
    const expected = Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p) : p)));
    expect(readFileSync(file).equals(expected)).toBe(true);
    expect(rec.failures).toEqual([]);
    expect(rec.streams()).toBe(0);
    expect(out.isTTY).toBe(false);
    expect(out.writableNeedDrain).toBe(false);
  });

  it('past its budget (a pipe), node stream takes over at the write that crosses it, and the order is kept', () => {
    const file = join(tmp, 'budget.txt');
    const fd = track(openSync(file, 'w'));
    const rec = recorder();
    const taken: Array<string | Uint8Array> = [];
    const stand = { write: (c: string | Uint8Array) => (taken.push(c), true) } as unknown as NodeJS.WriteStream;
    const out = new DescriptorOut(fd, rec.countStream(() => stand), rec.failed, SYNC_PIPE_BYTES);
    out.write('a'.repeat(SYNC_PIPE_BYTES - 1));
    out.write('b');
    expect(rec.streams()).toBe(0);
    out.write('c');
    out.write('d');
    closeQuietly(fd);
    expect(readFileSync(file, 'utf8')).toBe(`${'a'.repeat(SYNC_PIPE_BYTES - 1)}b`);
    expect(rec.streams()).toBe(1);
    expect(taken.map((c) => Buffer.from(c).toString())).toEqual(['c', 'd']);
  });

  it('descriptorKind: a file and /dev/null never wait, a pipe may', () => {
    const file = track(openSync(join(tmp, 'kind.txt'), 'w'));
    const devNull = track(openSync('/dev/null', 'w'));
    const { r, w } = fifo();
    expect([descriptorKind(file), descriptorKind(devNull), descriptorKind(w), descriptorKind(r)]).toEqual(['file', 'file', 'pipe', 'pipe']);
  });

  it.skipIf(skipBecause(!hasPython && 'python3 (the slow reader) is missing'))(
    'a non-blocking pipe with a slow reader and 1 MB: EAGAIN hands the rest to node stream, and every byte arrives in order',
    async () => {
      // O_NONBLOCK on the write end's open file, as another process (a shell, a parent) can leave it.
      const { path, r, w } = fifo(constants.O_NONBLOCK);
      const received = join(tmp, 'received');
      const reader = spawn(
        'python3',
        [
          '-c',
          `import os, sys, time
fd = os.open(sys.argv[1], os.O_RDONLY)
print('ready', flush=True)
time.sleep(0.2)  # the pipe fills first
with open(sys.argv[2], 'wb') as f:
    while True:
        b = os.read(fd, 4096)
        if not b:
            break
        f.write(b)
        time.sleep(0.0005)`,
          path,
          received,
        ],
        { stdio: ['ignore', 'pipe', 'pipe'] },
      );
      const exited = exitOf(reader);
      let stderr = '';
      reader.stderr!.setEncoding('utf8').on('data', (d: string) => (stderr += d));
      await new Promise<void>((resolve) => reader.stdout!.once('data', () => resolve()));
      // The reader holds the FIFO open now: this process keeps only the write end.
      closeQuietly(r);

      const rec = recorder();
      let socket: Socket | undefined;
      // node's stream for a pipe is a net.Socket on the descriptor (what process.stdout is): libuv waits for the reader.
      const make = () => (socket = new Socket({ fd: w, readable: false, writable: true })) as unknown as NodeJS.WriteStream;
      const out = new DescriptorOut(w, rec.countStream(make), rec.failed);
      const sent: Buffer[] = [];
      let calledAt = -1;
      const lines = (from: number, count: number) => Array.from({ length: count }, (_, k) => `${String(from + k).padStart(6, '0')} ${'abcdefghij'.repeat(50)} ✓\n`).join('');
      let drains = 0;
      for (let i = 0; sent.reduce((s, b) => s + b.length, 0) < 1024 * 1024; i++) {
        // Small lines first (written in one piece or not at all: a pipe writes up to 4 KiB atomically);
        // then one chunk of 200 KB, more than the 64 KiB pipe can take, written in part before EAGAIN.
        const text = i === 20 ? lines(100_000, 400) : lines(i, 1);
        // Text and bytes alternate (a workbook writes bytes).
        const chunk = i % 2 === 0 ? text : new Uint8Array(Buffer.from(text));
        sent.push(Buffer.from(text));
        if (rec.streams() === 0) calledAt = i;
        out.write(chunk);
        // format/drain.ts waits so when node stream says it is full.
        if (out.writableNeedDrain) {
          drains++;
          await new Promise<void>((resolve) => out.once('drain', resolve));
        }
      }
      // Node's stream was built during the big chunk, after the small ones went by writeSync.
      expect(calledAt).toBe(20);
      expect(rec.streams()).toBe(1);
      expect(socket).toBeDefined();
      expect(drains).toBeGreaterThan(0);
      await new Promise<void>((resolve, reject) => {
        socket!.once('error', reject);
        socket!.end(() => resolve());
      });
      socket!.destroy();
      fds.delete(w); // the socket closed it
      expect(await exited, stderr).toBe(0);
      expect(rec.failures).toEqual([]);
      const got = readFileSync(received);
      const expected = Buffer.concat(sent);
      expect(got.length).toBe(expected.length);
      expect(got.equals(expected)).toBe(true);
    },
    30_000,
  );

  it('a pipe whose reader closed: failed once, with EPIPE; later writes are dropped', () => {
    const { r, w } = fifo();
    const rec = recorder();
    const out = new DescriptorOut(w, rec.noStream, rec.failed);
    expect(out.write('first\n')).toBe(true);
    closeQuietly(r);
    expect(out.write('second\n')).toBe(true);
    expect(rec.failures.map((e) => e.code)).toEqual(['EPIPE']);
    expect(out.write('third\n')).toBe(true);
    expect(out.write(Buffer.alloc(200_000, 0x61))).toBe(true);
    expect(rec.failures).toHaveLength(1);
    expect(rec.streams()).toBe(0);
  });

  it.skipIf(skipBecause(!existsSync('/dev/full') && 'there is no /dev/full here'))('/dev/full: failed once, with ENOSPC; later writes are dropped', () => {
    const fd = track(openSync('/dev/full', 'w'));
    const rec = recorder();
    const out = new DescriptorOut(fd, rec.noStream, rec.failed);
    expect(out.write('a row\n')).toBe(true);
    expect(rec.failures.map((e) => e.code)).toEqual(['ENOSPC']);
    out.write(new Uint8Array([1, 2, 3]));
    out.write('another row\n');
    expect(rec.failures).toHaveLength(1);
    expect(rec.streams()).toBe(0);
  });
});

describe('isTerminal', () => {
  it('a regular file, a pipe, /dev/null, /dev/zero and a closed descriptor are not terminals', () => {
    const file = track(openSync(join(tmp, 'plain'), 'w'));
    const { r, w } = fifo();
    const devNull = track(openSync('/dev/null', 'r+'));
    const zero = track(openSync('/dev/zero', 'r'));
    for (const fd of [file, r, w, devNull, zero]) expect(isTerminal(fd), `fd ${fd}`).toBe(false);
    const closed = openSync('/dev/null', 'r');
    closeSync(closed);
    expect(isTerminal(closed)).toBe(false);
  });

  it.skipIf(skipBecause(!existsSync('/dev/ptmx') && 'no pseudo-terminal can be had here (/dev/ptmx is missing)'))('a pseudo-terminal is one (stdin, stdout and stderr of a child in a pty); /dev/null in that child is not', async () => {
    const io = join(ROOT, 'src/core/io.ts');
    const code = `
      const { openSync } = await import('node:fs');
      const { isTerminal } = await import(${JSON.stringify(io)});
      const devNull = openSync('/dev/null', 'r');
      console.log('RESULT ' + JSON.stringify([isTerminal(0), isTerminal(1), isTerminal(2), isTerminal(devNull)]));`;
    const term = spawnPty(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', code], { cwd: ROOT });
    try {
      const { code: exit, output } = await term.wait(20_000);
      expect(exit, output).toBe(0);
      expect(output).toContain('RESULT [true,true,true,false]');
    } finally {
      term.kill();
    }
  });
});

function exitOf(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => child.on('close', (code) => resolve(code)));
}

describe('createProcessIO', () => {
  it("node's stderr built later by anyone (here a direct write, as the stub store's warning does) gets the error handler: a closed pipe does not crash the run", async () => {
    const io = join(ROOT, 'src/core/io.ts');
    // stderr is a pipe whose reader is gone before the child writes: EPIPE on node's stream, an 'error' event.
    const code = `
      const { createProcessIO } = await import(${JSON.stringify(io)});
      createProcessIO();
      await new Promise((r) => setTimeout(r, 300));
      process.stderr.write('a warning nobody reads\\n');
      await new Promise((r) => setTimeout(r, 100));
      process.stdout.write('ALIVE\\n');`;
    const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', code], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout?.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr?.destroy();
    const exit = await exitOf(child);
    expect(out).toContain('ALIVE');
    expect(exit).toBe(0);
  });
});

/**
 * `invite --csv -` spools standard input to a temporary file so both passes
 * can read it (issue 42, finding 5: `< /dev/zero` filled a 73 GB file, Ctrl-C
 * and SIGTERM were not heard while spooling, and the file stayed behind on a
 * failure). Now: the documented 32 MiB bound, refused with one sentence
 * (exit 2); Ctrl-C ends the copy at once (130), SIGTERM too (143); and the
 * spool is gone on every one of those ways out. Each run gets a TMPDIR of its
 * own, so what is left behind there is this run's.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { run } from '../../src/cli/main.js';
import { createIO } from '../../src/core/io.js';
import { InterruptError } from '../../src/core/errors.js';
import { INPUT_MAX_BYTES } from '../../src/core/input.js';
import { ROOT } from '../e2e/built.js';

const INVITER = 'dana@northwind.example';
let root: string;
beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'jobfit-stdin-spool-'));
});
afterAll(() => {
  if (root) rmSync(root, { recursive: true, force: true });
});

class Out {
  buf = '';
  isTTY = false;
  columns = undefined;
  write(s: string): boolean {
    this.buf += s;
    return true;
  }
}

/** Runs `invite` in-process on this stdin with TMPDIR set to a fresh folder; returns what is left there. */
async function inviteWith(stdin: Readable, signal?: AbortSignal) {
  const tmp = mkdtempSync(join(root, 'tmp-'));
  const configDir = mkdtempSync(join(root, 'config-'));
  const before = process.env.TMPDIR;
  process.env.TMPDIR = tmp;
  const stdout = new Out();
  const stderr = new Out();
  const io = createIO({ stdout, stderr, stdin: Object.assign(stdin, { isTTY: false }), env: { JOBFIT_CONFIG_DIR: configDir }, signal });
  const t0 = performance.now();
  try {
    const code = await run(['invite', '--csv', '-', '--created-by', INVITER, '--dry-run'], io);
    return { code, stderr: stderr.buf, seconds: (performance.now() - t0) / 1000, left: readdirSync(tmp) };
  } finally {
    process.env.TMPDIR = before;
  }
}

describe('invite --csv - reads standard input to the bound', () => {
  it('an endless standard input (< /dev/zero) is refused at 32 MiB with one sentence, and the spool is removed', async () => {
    let sent = 0;
    const endless = new Readable({
      read() {
        // Endless to the reader; it stops at 48 MiB only so that a jobfit without the bound ends too.
        if (sent >= 48 * 1024 * 1024) return void this.push(null);
        sent += 65536;
        this.push(Buffer.alloc(65536, 0x61));
      },
    });
    const r = await inviteWith(endless);
    expect(r.stderr).toMatch(/Standard input is larger than 32 MiB/);
    expect(r.stderr).not.toMatch(/bug in jobfit|\n\s+at /);
    expect(r.code).toBe(2);
    expect(sent).toBeLessThan(INPUT_MAX_BYTES + 4 * 1024 * 1024);
    expect(r.left).toEqual([]);
  }, 60_000);

  it('Ctrl-C while spooling ends the run at once (130), and the spool is removed', async () => {
    const ac = new AbortController();
    // A standard input that sends a header and then nothing, never ending.
    const open = new Readable({ read() {} });
    open.push('First Name,Last Name,Email\n');
    setTimeout(() => ac.abort(new InterruptError('SIGINT')), 300);
    const r = await inviteWith(open, ac.signal);
    expect(r.code).toBe(130);
    expect(r.seconds).toBeLessThan(5);
    expect(r.left).toEqual([]);
  }, 30_000);
});

describe('the built jobfit', () => {
  it('SIGTERM while spooling standard input ends it (143) and removes the spool', async () => {
    const tmp = mkdtempSync(join(root, 'tmp-'));
    const configDir = mkdtempSync(join(root, 'config-'));
    const child = spawn(process.execPath, [join(ROOT, 'bin/jobfit.js'), 'invite', '--csv', '-', '--created-by', INVITER, '--dry-run'], {
      env: { PATH: process.env.PATH, HOME: root, TMPDIR: tmp, JOBFIT_CONFIG_DIR: configDir },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (b: Buffer) => (stderr += b.toString()));
    child.stdin.write('First Name,Last Name,Email\nAda,Lovelace,ada@example.com\n');
    const exited = new Promise<number | null>((done) => child.on('exit', (code) => done(code)));
    // The spool exists: the copy is under way.
    for (let i = 0; i < 200 && readdirSync(tmp).length === 0; i++) await new Promise((r) => setTimeout(r, 50));
    expect(readdirSync(tmp)).toHaveLength(1);
    child.kill('SIGTERM');
    const t0 = performance.now();
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    const code = await exited;
    clearTimeout(timer);
    expect(code, stderr).toBe(143);
    expect(performance.now() - t0).toBeLessThan(5000);
    expect(readdirSync(tmp)).toEqual([]);
    child.stdin.destroy();
  }, 60_000);
});

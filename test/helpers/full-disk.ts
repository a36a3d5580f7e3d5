/**
 * A full disk for the write-error tests (issue 31, finding 2), shared by
 * test/export/write-errors.test.ts and test/faults/pipes-and-disks.test.ts:
 * the built CLI run with stdout to a real pipe or to a file, a small tmpfs
 * mounted as root for a describe block, and the run into a file on it that
 * must end with exit 1 and one sentence naming the file and ENOSPC.
 *
 * Every test that mounts a tmpfs does it here: the stub on a tiny disk
 * (test/stub/disk.test.ts: newTmpfs, unmountTmpfs) and a bulk run in a private
 * mount namespace (test/bulk/disk.test.ts: inPrivateTmpfs), each skipped with
 * its reason where cannotMountTmpfs says the machine cannot mount one.
 */
import { spawn, spawnSync } from 'node:child_process';
import { closeSync, mkdirSync, mkdtempSync, openSync, readdirSync, rmSync, statfsSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { BuiltCli } from '../e2e/built.js';
import { skipBecause } from './skip.js';

export interface Ended {
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface RunBuiltOptions {
  /** 'pipe': a real pipe(2), as a shell's `|` makes, through `| cat` (node's own stdio pipes are socket pairs); or a file descriptor. */
  stdout: 'pipe' | number;
  /** Added to PATH, HOME (the copy's), NO_COLOR=1. */
  env: Record<string, string>;
  /** The child is killed after this long (its code is then null). */
  killAfterMs: number;
  /** Gets the child's pid once it runs (to signal it). */
  started?: (pid: number) => void;
}

/** The built CLI with stdout to a pipe or a file. The code is the CLI's own, not cat's. */
export function runBuilt(cli: BuiltCli, args: string[], o: RunBuiltOptions): Promise<Ended> {
  return new Promise((resolve) => {
    const [cmd, argv] = o.stdout === 'pipe' ? ['bash', ['-c', '"$0" "$@" | cat; exit "${PIPESTATUS[0]}"', cli.command, ...cli.prefix, ...args]] : [cli.command, [...cli.prefix, ...args]];
    const child = spawn(cmd as string, argv as string[], {
      env: { PATH: cli.path, HOME: join(cli.dir, 'home'), NO_COLOR: '1', ...o.env },
      stdio: ['ignore', o.stdout, 'pipe'],
    });
    if (child.pid) o.started?.(child.pid);
    let out = '';
    let err = '';
    child.stdout?.setEncoding('utf8').on('data', (d: string) => (out += d));
    child.stderr?.setEncoding('utf8').on('data', (d: string) => (err += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), o.killAfterMs);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout: out, stderr: err });
    });
  });
}

/** Mounts a tmpfs of `size` (`64k`, `1m`) at `dir` (needs root). */
export function mountTmpfs(dir: string, size: string) {
  return spawnSync('mount', ['-t', 'tmpfs', '-o', `size=${size}`, 'tmpfs', dir], { encoding: 'utf8' });
}

/** Unmounts `dir` (lazily when it is still busy) and removes the folder. */
export function unmountTmpfs(dir: string): void {
  if (spawnSync('umount', [dir]).status !== 0) spawnSync('umount', ['-l', dir]);
  rmSync(dir, { recursive: true, force: true });
}

/** A tmpfs of `size` mounted on a new folder in the temp dir (needs root); throws with the reason when it cannot. */
export function newTmpfs(size: string, prefix = 'jobfit-tmpfs-'): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const r = mountTmpfs(dir, size);
  if (r.status === 0) return dir;
  rmSync(dir, { recursive: true, force: true });
  throw new Error(`cannot mount a tmpfs here (${(r.error?.message ?? r.stderr).trim() || `mount exited ${r.status}`})`);
}

/**
 * Why a tmpfs cannot be mounted here, or undefined: a probe mount, undone at
 * once. 'root': by this process, a mount every process sees (newTmpfs);
 * 'namespace': in a private mount namespace (`unshare -rm`, as inPrivateTmpfs
 * mounts), which a user namespace allows without root.
 */
export function cannotMountTmpfs(how: 'root' | 'namespace'): string | undefined {
  if (process.platform !== 'linux') return 'tmpfs mounts are Linux only';
  if (how === 'root') {
    try {
      unmountTmpfs(newTmpfs('64k', 'jobfit-tmpfs-probe-'));
      return undefined;
    } catch (err) {
      return (err as Error).message;
    }
  }
  const probe = mkdtempSync(join(tmpdir(), 'jobfit-tmpfs-probe-'));
  try {
    const r = spawnSync('unshare', ['-rm', 'sh', '-c', `mount -t tmpfs -o size=64k tmpfs '${probe}'`], { encoding: 'utf8' });
    return r.status === 0 ? undefined : `cannot mount a tmpfs in a private mount namespace (${(r.error?.message ?? r.stderr).trim() || `unshare exited ${r.status}`})`;
  } finally {
    rmSync(probe, { recursive: true, force: true });
  }
}

/**
 * The command and arguments (for spawn) that run `argv` with a tmpfs of
 * `size` mounted at `mnt` (read-only when asked) in a private mount namespace
 * of its own; what the run left on it is copied to `save` before the
 * namespace goes away. The exit code is argv's.
 */
export function inPrivateTmpfs(mnt: string, size: string, argv: string[], o: { save: string; readOnly?: boolean }): [string, string[]] {
  mkdirSync(mnt, { recursive: true });
  mkdirSync(o.save, { recursive: true });
  const ro = o.readOnly ? ` && mount -o remount,ro '${mnt}'` : '';
  const script = `mount -t tmpfs -o size=${size},mode=0755 tmpfs '${mnt}'${ro} && "$@"; rc=$?; cp -a '${mnt}/.' '${o.save}/'; exit $rc`;
  return ['unshare', ['-rm', 'sh', '-c', script, 'sh', ...argv]];
}

export interface FullDisk {
  /** `it` as root, `it.skip` (the reason printed) otherwise. */
  onTmpfs: typeof it | typeof it.skip;
  /** The mounted folder, emptied; throws as root when the mount failed (a failure, not a silent skip). */
  emptied(): string;
}

/**
 * A 64 KiB tmpfs at `<tmp()>/full` for the describe block that calls this
 * (mounted in its beforeAll, unmounted in its afterAll).
 */
export function fullDisk(tmp: () => string): FullDisk {
  const root = process.getuid?.() === 0;
  let full: string | undefined;
  let mountError = '';
  beforeAll(() => {
    if (!root) return;
    const dir = join(tmp(), 'full');
    mkdirSync(dir);
    const m = mountTmpfs(dir, '64k');
    if (m.status === 0) full = dir;
    else mountError = m.stderr;
  });
  afterAll(() => {
    if (full) spawnSync('umount', [full]);
  });
  return {
    onTmpfs: skipBecause(!root && 'the full-disk tests mount a 64 KiB tmpfs and need root') ? it.skip : it,
    emptied() {
      if (!full) throw new Error(`could not mount a 64k tmpfs as root: ${mountError}`);
      for (const f of readdirSync(full)) rmSync(join(full, f), { recursive: true, force: true });
      return full;
    },
  };
}

/**
 * `> FILE` on the full disk: `run` gets a descriptor of `file` opened for
 * writing. The run must end with exit 1 and one sentence naming the file and
 * ENOSPC, and its summary must not claim the rows were written (they were
 * handed to a full disk). Returns the run for what else a test checks.
 * `named`: how the sentence names it (a Windows program cannot learn the path
 * behind its standard output, so there it says "standard output").
 */
export async function runIntoFullFile(file: string, run: (fd: number) => Promise<Ended>, named = file): Promise<Ended> {
  const fd = openSync(file, 'w');
  try {
    const r = await run(fd);
    expect(r.code, r.stderr).toBe(1);
    expect(r.stderr).toContain(`Error: could not write the output to ${named}: the disk is full (ENOSPC)`);
    expect(r.stderr).not.toMatch(/\bwritten, 0 failed/);
    return r;
  } finally {
    closeSync(fd);
  }
}

/** Fills `dir`'s disk up to its last `room` bytes (a file `.filler` in `dir`). */
export function fillUpTo(dir: string, room: number): void {
  const s = statfsSync(dir);
  const free = s.bavail * s.bsize;
  if (free > room) writeFileSync(join(dir, '.filler'), Buffer.alloc(free - room));
}

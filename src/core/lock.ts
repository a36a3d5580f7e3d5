/**
 * One writer at a time for a file we own (a results file, a journal, the
 * config, a sync target): `<target>.lock`, created exclusively, holding the
 * owner's pid, host, start time and command. A lock whose owner is gone (a
 * dead pid on this host, or a file that cannot be read as ours and is older
 * than a minute) is stale and taken over; a live owner is named in the refusal.
 */
import { closeSync, fstatSync, openSync, readSync, statSync, unlinkSync, writeSync, constants } from 'node:fs';
import { hostname } from 'node:os';
import { JobfitError, UsageError } from './errors.js';
import { fileErrorCause } from './files.js';

export interface LockOwner {
  pid: number;
  host: string;
  /** ISO time the owner took the lock. */
  started: string;
  command?: string;
}

export interface FileLock {
  readonly path: string;
  release(): void;
}

/** Another live run holds the lock: exit 2, nothing done. */
export class LockedError extends UsageError {
  readonly owner?: LockOwner;
  constructor(target: string, owner: LockOwner | undefined) {
    const who = owner
      ? `process ${owner.pid}${owner.host !== hostname() ? ` on ${owner.host}` : ''}, started ${owner.started}${owner.command ? ` (${owner.command})` : ''}`
      : 'another process';
    super(`${target} is in use by ${who}.`, `wait for it to finish, or stop it; if no such run exists, remove ${target}.lock`);
    this.owner = owner;
  }
}

export function lockPath(target: string): string {
  return `${target}.lock`;
}

/** The lock file as it is now: its text and owner, or gone (released in between). */
function readLock(path: string): { gone: boolean; text?: string; owner?: LockOwner } {
  let text: string;
  let fd: number;
  try {
    // Not through a link, and O_NONBLOCK: a FIFO planted at the lock path must not hang the run.
    fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ELOOP') throw new UsageError(`The lock file ${path} is a symbolic link; jobfit never uses it.`, `remove ${path}`);
    return { gone: code === 'ENOENT' };
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) throw new UsageError(`The lock file ${path} is not a regular file (a FIFO, a device or a folder); jobfit never uses it.`, `remove ${path}`);
    // A lock holds one line of JSON: more is not ours (and is not read whole).
    const buf = Buffer.alloc(Math.min(st.size, 64 * 1024));
    text = buf.subarray(0, readSync(fd, buf, 0, buf.length, 0)).toString('utf8');
  } catch (err) {
    if (err instanceof UsageError) throw err;
    return { gone: (err as NodeJS.ErrnoException).code === 'ENOENT' };
  } finally {
    closeSync(fd);
  }
  try {
    const o = JSON.parse(text) as Partial<LockOwner>;
    if (typeof o.pid === 'number' && typeof o.host === 'string' && typeof o.started === 'string') return { gone: false, text, owner: o as LockOwner };
  } catch {
    // empty (being written) or torn: judged by age
  }
  return { gone: false, text };
}

function readOwner(path: string): LockOwner | undefined {
  return readLock(path).owner;
}

/** Whether a process of this machine still runs (a lock's or a file's owner). */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: the process exists but belongs to someone else.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Whether the lock at `path` belongs to nobody alive any more. */
function isStale(path: string, owner: LockOwner | undefined, nowMs: number): boolean {
  if (owner) {
    if (owner.host !== hostname()) return false; // cannot tell: another machine's run
    return owner.pid !== process.pid && !processAlive(owner.pid);
  }
  try {
    // A lock being written right now is empty for a moment: only old garbage is stale.
    return nowMs - statSync(path).mtimeMs > 60_000;
  } catch {
    return true;
  }
}

const held = new Set<string>();
let exitHook = false;

function releaseAllOnExit(): void {
  if (exitHook) return;
  exitHook = true;
  process.once('exit', () => {
    for (const p of held) {
      try {
        unlinkSync(p);
      } catch {
        // already gone
      }
    }
  });
}

/** Tries once; undefined when a live owner holds it (its details in `owner`). */
export function tryLock(target: string, opts: { command?: string; nowMs?: number } = {}): { lock?: FileLock; owner?: LockOwner } {
  const path = lockPath(target);
  for (let attempt = 0; attempt < 5; attempt++) {
    let fd: number;
    try {
      fd = openSync(path, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o600);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const seen = readLock(path);
      // Released since the open: try again, never remove what may be a new owner's lock.
      if (seen.gone) continue;
      if (!isStale(path, seen.owner, opts.nowMs ?? Date.now())) return { owner: seen.owner };
      // Remove only the lock judged stale: its owner may have released it and
      // a live run taken a new one in the meantime (owner exited after release).
      if (readLock(path).text !== seen.text) continue;
      try {
        unlinkSync(path);
      } catch {
        // someone else took it over first: try again
      }
      continue;
    }
    const me: LockOwner = { pid: process.pid, host: hostname(), started: new Date(opts.nowMs ?? Date.now()).toISOString(), command: opts.command };
    writeOwner(path, fd, me);
    held.add(path);
    releaseAllOnExit();
    let released = false;
    return {
      lock: {
        path,
        release() {
          if (released) return;
          released = true;
          held.delete(path);
          try {
            unlinkSync(path);
          } catch {
            // already gone
          }
        },
      },
    };
  }
  return { owner: readOwner(path) };
}

/**
 * Writes the owner into the lock just created, whole: a lock that could not
 * be written (a full disk) is removed, never left empty to make the next run
 * wait a minute for it, and the run stops with one sentence (exit 1).
 */
function writeOwner(path: string, fd: number, me: LockOwner): void {
  const b = Buffer.from(JSON.stringify(me));
  try {
    let off = 0;
    while (off < b.length) off += writeSync(fd, b, off, b.length - off);
  } catch (err) {
    closeSync(fd);
    try {
      unlinkSync(path);
    } catch {
      // already gone
    }
    throw new JobfitError(`Could not take the lock ${path}: ${fileErrorCause(err)}; nothing was done.`, { cause: err });
  }
  closeSync(fd);
}

/** Takes the lock or throws LockedError (exit 2) naming the running owner. */
export function acquireLock(target: string, opts: { command?: string } = {}): FileLock {
  const { lock, owner } = tryLock(target, opts);
  if (!lock) throw new LockedError(target, owner);
  return lock;
}

function sleepSync(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/**
 * Runs `fn` while holding the lock, waiting for it up to `timeoutMs` (short
 * read-modify-write: the config). Throws LockedError when still held then.
 */
export function withLockSync<T>(target: string, fn: () => T, opts: { timeoutMs?: number; command?: string } = {}): T {
  const deadline = Date.now() + (opts.timeoutMs ?? 10_000);
  let wait = 2;
  for (;;) {
    const { lock, owner } = tryLock(target, opts);
    if (lock) {
      try {
        return fn();
      } finally {
        lock.release();
      }
    }
    if (Date.now() >= deadline) throw new LockedError(target, owner);
    sleepSync(wait + Math.floor(Math.random() * wait));
    wait = Math.min(wait * 2, 50);
  }
}

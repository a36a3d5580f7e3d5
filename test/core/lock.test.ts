import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir, hostname } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { acquireLock, LockedError, withLockSync } from '../../src/core/lock.js';

const dir = () => mkdtempSync(join(tmpdir(), 'jobfit-lock-'));

describe('file lock', () => {
  it('lets one owner in and names it to the second', () => {
    const target = join(dir(), 'results.csv');
    const lock = acquireLock(target, { command: 'invite --csv a.csv' });
    expect(existsSync(`${target}.lock`)).toBe(true);
    let caught: unknown;
    try {
      acquireLock(target);
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(LockedError);
    expect((caught as LockedError).exitCode).toBe(2);
    expect((caught as LockedError).message).toContain(`process ${process.pid}`);
    expect((caught as LockedError).message).toContain('invite --csv a.csv');
    lock.release();
    expect(existsSync(`${target}.lock`)).toBe(false);
    acquireLock(target).release();
  });

  it('takes over the lock of a process that is gone', () => {
    const target = join(dir(), 'journal.ndjson');
    const dead = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
    const pid = Number(dead.stdout);
    writeFileSync(`${target}.lock`, JSON.stringify({ pid, host: hostname(), started: new Date().toISOString() }));
    const lock = acquireLock(target);
    expect(JSON.parse(readFileSync(`${target}.lock`, 'utf8')).pid).toBe(process.pid);
    lock.release();
  });

  it('serialises read-modify-write across processes: no update lost', async () => {
    const d = dir();
    const counter = join(d, 'counter');
    writeFileSync(counter, '0');
    const lockUrl = new URL('../../src/core/lock.ts', import.meta.url).href;
    const script = `
      const { withLockSync } = await import(${JSON.stringify(lockUrl)});
      const fs = await import('node:fs');
      for (let i = 0; i < 20; i++) withLockSync(${JSON.stringify(counter)}, () => {
        const n = Number(fs.readFileSync(${JSON.stringify(counter)}, 'utf8'));
        fs.writeFileSync(${JSON.stringify(counter)}, String(n + 1));
      });`;
    const runs = Array.from({ length: 8 }, () =>
      new Promise<number>((resolve) => {
        const p = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { stdio: 'inherit' });
        p.on('exit', (code) => resolve(code ?? 1));
      }),
    );
    expect(await Promise.all(runs)).toEqual(Array(8).fill(0));
    expect(readFileSync(counter, 'utf8')).toBe('160');
    expect(withLockSync(counter, () => 'done')).toBe('done');
  }, 60_000);
});

/**
 * Unit tests of the steps of `webhook listen` (src/webhook/listen.ts): the
 * line under each forward, what a failed start means to a person, the closing
 * summary, and how the events the app did not take are kept.
 */
import { closeSync, lstatSync, openSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { JobfitError, UsageError } from '../../src/core/errors.js';
import { forwardLine, keepUnforwarded, listenFailure, stoppedSummary, unforwardedFileName } from '../../src/webhook/listen.js';
import type { Unforwarded } from '../../src/webhook/forward-queue.js';
import { tempDir } from './helpers.js';

const item = (id: string, last_error = 'ECONNREFUSED'): Unforwarded => ({
  id,
  type: 'invitation.accepted',
  received_at: '2026-11-22T10:00:00.000Z',
  attempts: 2,
  last_error,
  headers: { 'webhook-id': id },
  body: `{"id":"${id}"}`,
});

let tmp: ReturnType<typeof tempDir>;
afterEach(() => tmp?.remove());

describe('webhook listen steps', () => {
  it('says of each forward its status and time, and whether it is tried again', () => {
    const r = (status: number | null, error?: string) => forwardLine({ url: 'http://app/hook', status, ms: 12, error });
    expect(r(200)).toBe('  -> http://app/hook  200 (12 ms)');
    expect(r(302)).toBe('  -> http://app/hook  302 (12 ms; redirects are not followed; kept and tried again)');
    expect(r(500)).toBe('  -> http://app/hook  500 (12 ms; kept and tried again)');
    expect(r(404)).toBe('  -> http://app/hook  404 (12 ms; kept and tried again)');
    expect(r(null, 'ECONNREFUSED')).toBe('  -> http://app/hook  failed: ECONNREFUSED (12 ms; kept and tried again)');
  });

  it('explains a port in use and a host that is not this machine, and passes anything else on', () => {
    const inUse = listenFailure(Object.assign(new Error('x'), { code: 'EADDRINUSE' }), 4000, '127.0.0.1');
    expect(inUse).toBeInstanceOf(JobfitError);
    expect((inUse as Error).message).toBe('Port 4000 is already in use on 127.0.0.1.');
    for (const code of ['EADDRNOTAVAIL', 'ENOTFOUND']) {
      const e = listenFailure(Object.assign(new Error('x'), { code }), 0, 'nowhere.example');
      expect(e).toBeInstanceOf(UsageError);
      expect((e as Error).message).toBe('Cannot listen on host nowhere.example.');
    }
    const other = new Error('EACCES');
    expect(listenFailure(other, 80, '127.0.0.1')).toBe(other);
  });

  it('sums up what it received, what the app took, what was refused or deferred, and the sender put back', () => {
    const r = (shown: number, refused = 0, deferred = 0, delivered = 0, failedAttempts = 0) => ({ shown, refused, deferred, forwards: { delivered, failedAttempts } });
    expect(stoppedSummary(r(1), 0, undefined, undefined)).toBe('Stopped; 1 event received.');
    expect(stoppedSummary(r(1200, 1, 2), 0, undefined, { what: "the stub's webhook settings" })).toBe(
      "Stopped; 1,200 events received. 1 request refused. 2 deliveries asked to come again later (busy). The stub's webhook settings are back as they were.",
    );
    expect(stoppedSummary(r(3, 0, 0, 2, 1), 1, 'http://app', undefined)).toBe('Stopped; 3 events received. 2 taken by your app, 1 not (1 failed attempt).');
    expect(stoppedSummary(r(2, 0, 0, 2, 0), 0, 'http://app', undefined)).toBe('Stopped; 2 events received. 2 taken by your app, 0 not.');
  });

  it('names a new file of unforwarded events by time and process, safe on every file system', () => {
    expect(unforwardedFileName(new Date('2026-11-22T10:00:00.123Z'), 42)).toBe('unforwarded-2026-11-22T10-00-00-123Z-42.ndjson');
  });

  it('keeps unforwarded events in a new owner-only file of its own, one JSON line each, nothing else left in the folder', () => {
    tmp = tempDir();
    const dir = join(tmp.dir, 'webhook-unforwarded');
    const now = new Date('2026-11-22T10:00:00.000Z');
    const path = keepUnforwarded([item('evt_1'), item('evt_2', 'HTTP 500')], { unforwardedDir: dir }, undefined, now);
    expect(path).toBe(join(dir, unforwardedFileName(now, process.pid)));
    expect(readdirSync(dir)).toEqual([unforwardedFileName(now, process.pid)]);
    expect(lstatSync(path).mode & 0o777).toBe(0o600);
    expect(lstatSync(dir).mode & 0o777).toBe(0o700);
    const lines = readFileSync(path, 'utf8').split('\n');
    expect(lines.at(-1)).toBe('');
    expect(lines.slice(0, -1).map((l) => JSON.parse(l) as Unforwarded)).toEqual([item('evt_1'), item('evt_2', 'HTTP 500')]);
  });

  it('never writes through a link planted at its file name', () => {
    tmp = tempDir();
    const dir = join(tmp.dir, 'webhook-unforwarded');
    const now = new Date('2026-11-22T10:00:00.000Z');
    const target = join(tmp.dir, 'target');
    writeFileSync(target, 'theirs');
    keepUnforwarded([item('evt_0')], { unforwardedDir: dir }, undefined, new Date(0));
    symlinkSync(target, join(dir, unforwardedFileName(now, process.pid)));
    expect(() => keepUnforwarded([item('evt_1')], { unforwardedDir: dir }, undefined, now)).toThrow(/symbolic link/);
    expect(readFileSync(target, 'utf8')).toBe('theirs');
    expect(readdirSync(dir).filter((n) => n.includes('jobfit-tmp'))).toEqual([]);
  });

  it('appends to the --unforwarded file opened at start', () => {
    tmp = tempDir();
    const path = join(tmp.dir, 'kept.ndjson');
    writeFileSync(path, 'before\n');
    const fd = openSync(path, 'a');
    try {
      expect(keepUnforwarded([item('evt_1')], { unforwardedPath: path, unforwardedDir: join(tmp.dir, 'unused') }, fd, new Date())).toBe(path);
    } finally {
      closeSync(fd);
    }
    expect(readFileSync(path, 'utf8')).toBe(`before\n${JSON.stringify(item('evt_1'))}\n`);
    expect(readdirSync(tmp.dir)).toEqual(['kept.ndjson']);
  });
});

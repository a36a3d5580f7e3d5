/**
 * Issue 43, item 3, beyond `--out`: every other file jobfit puts in place
 * for a person goes through the same checked path (src/export/out-file.ts:
 * every byte written, the size checked, fsync, then rename), and a file only
 * appended to takes each append whole or not at all. On a full disk each
 * writer fails loudly (one sentence, exit 1), leaves an earlier file of the
 * same name as it was and nothing beside it.
 *
 * The disk is the 64 KiB tmpfs of test/helpers/full-disk.ts (root only),
 * filled up to its last 4 KiB page: a larger write is first cut short (a
 * short write), then refused (ENOSPC), as a full disk does. Before the fix:
 * the listener's queue, its file of events the app did not take and its log
 * took the cut write as whole (a cut file renamed into place, a cut line
 * appended, no word said), a cut queue read back as an empty one, the note
 * of failed ids left its fixed temporary name behind, a `--retry-failed`
 * merge and the note failed with node's bare ENOSPC message, and a lock that
 * could not be written stayed behind empty. The results files and `--errors`
 * held already (their own loops); they now share the one path and are kept
 * here so that they go on holding.
 */
import { closeSync, mkdtempSync, openSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signDelivery } from '../../src/api/webhook-signature.js';
import { run } from '../../src/cli/main.js';
import type { JobfitError } from '../../src/core/errors.js';
import { acquireLock } from '../../src/core/lock.js';
import type { Session } from '../../src/core/session.js';
import { createResultsWriter } from '../../src/bulk/xlsx-results.js';
import { createErrorSink } from '../../src/export/error-sink.js';
import { mergePart, noteFailures } from '../../src/export/retry-failed.js';
import { eventQueue } from '../../src/sync/event-queue.js';
import { keepUnforwarded } from '../../src/webhook/listen.js';
import type { Unforwarded } from '../../src/webhook/forward-queue.js';
import { fillUpTo, fullDisk, newTmpfs, unmountTmpfs } from '../helpers/full-disk.js';
import { memoryIO } from '../helpers/io.js';
import { until } from '../helpers/until.js';

let tmp: string;
beforeAll(() => {
  tmp = mkdtempSync(join(tmpdir(), 'jobfit-writers-full-'));
});
const closers: Array<() => void> = [];
afterAll(() => {
  for (const c of closers.splice(0)) c();
  rmSync(tmp, { recursive: true, force: true });
});

const OLD = 'the earlier file\n';
const SECRET = `whsec_${Buffer.from('a test secret of 32 bytes, fixed').toString('base64')}`;
const PAGE = 4096;

/** The error `f` throws (or the promise it returns rejects with). */
async function thrown(f: () => unknown): Promise<JobfitError & NodeJS.ErrnoException> {
  try {
    await f();
  } catch (err) {
    return err as JobfitError & NodeJS.ErrnoException;
  }
  throw new Error('it did not fail');
}

/** A JobfitError of exit 1, one sentence naming the file and ENOSPC. */
function oneSentence(err: JobfitError, file: string): void {
  expect(err.exitCode, err.message).toBe(1);
  expect(err.message).toContain(file);
  expect(err.message).toContain('the disk is full (ENOSPC)');
  expect(err.message.trim().split(/\.\s+(?=[A-Z])/)).toHaveLength(1);
}

const session = () => ({ io: memoryIO().io }) as unknown as Session;
const manyIds = (n: number) => Array.from({ length: n }, (_, i) => 1_000_000 + i);

describe('every writer on a full disk', () => {
  const { onTmpfs, emptied } = fullDisk(() => tmp);

  onTmpfs('the listener queue: a full disk keeps the earlier queue, whole, and nothing beside it', () => {
    const full = emptied();
    const queue = eventQueue(join(full, 'db.sqlite'))!;
    writeFileSync(queue.path, '{"invitations":[7],"test_takers":[]}\n');
    const before = readFileSync(queue.path, 'utf8');
    fillUpTo(full, PAGE);
    const err = queue.save({ invitations: new Set(manyIds(3000)), takers: new Set() });
    expect(err?.message).toMatch(/ENOSPC/);
    expect(readFileSync(queue.path, 'utf8')).toBe(before);
    expect(readdirSync(full).sort()).toEqual(['.filler', 'db.sqlite.listen-pending.json']);
    expect([...queue.load().invitations]).toEqual([7]);
  });

  onTmpfs('--errors FILE: exit 1, one sentence, the earlier file kept, nothing beside it', async () => {
    const full = emptied();
    const file = join(full, 'errors.ndjson');
    writeFileSync(file, OLD);
    fillUpTo(full, PAGE);
    const sink = createErrorSink(session(), file, 'test taker');
    for (const id of manyIds(400)) sink.failed(id, Object.assign(new Error('the service could not answer this one'), { status: 500 }));
    const err = await thrown(() => sink.close());
    oneSentence(err, `--errors ${file}`);
    expect(readFileSync(file, 'utf8')).toBe(OLD);
    expect(readdirSync(full).sort()).toEqual(['.filler', 'errors.ndjson']);
  });

  onTmpfs.each(['results.csv', 'results.xlsx'])('invite --out %s: the file fails loudly at the end of the run, the earlier file kept, nothing beside it', async (name) => {
    const full = emptied();
    const file = join(full, name);
    writeFileSync(file, OLD);
    const w = createResultsWriter(file, ['email', 'note'], ',', false);
    // Rows that do not compress much (a workbook of them is larger than a page), under the writer's 64 KiB buffer.
    const cells = (row: number) => [`someone.${row}@example.com`, createHash('sha256').update(String(row)).digest('hex')];
    let lines = `${JSON.stringify(['email', 'note', 'row', 'status', 'invitation_id', 'assessment_url', 'error'])}\n`;
    for (let row = 1; row <= 300; row++) {
      w.put(row, cells(row), { status: 'created', id: 50_000 + row });
      lines += `${JSON.stringify([...cells(row), String(row), 'created', String(50_000 + row), '', ''])}\n`;
    }
    // CSV: the rows reach the disk at the end; a workbook: its rows (as lines) fit, the workbook made of them does not.
    fillUpTo(full, name.endsWith('.xlsx') ? Math.ceil(Buffer.byteLength(lines) / PAGE) * PAGE + PAGE : PAGE);
    // As a bulk run ends (sending.ts): kept unless a write failed.
    const err = await thrown(() => w.close(!w.failed));
    expect(err.code ?? err.message).toMatch(/ENOSPC/);
    expect(readFileSync(file, 'utf8')).toBe(OLD);
    expect(readdirSync(full).sort()).toEqual(['.filler', name]);
  });

  onTmpfs('the note of failed ids (scorecard --out F): one sentence, no temporary file, no stale note', async () => {
    const full = emptied();
    const out = join(full, 'sc.csv');
    writeFileSync(out, 'the export this run wrote\n');
    writeFileSync(`${out}.failed.json`, '{"command":"scorecard","sp":"sales-rep","format":"csv","ids":[1],"at":"2026-01-01T00:00:00.000Z"}\n');
    fillUpTo(full, PAGE);
    const err = await thrown(() => noteFailures(out, { command: 'scorecard', sp: 'sales-rep', format: 'csv', ids: manyIds(2000) }, new Date()));
    oneSentence(err, `${out}.failed.json`);
    // The earlier note named the failures of the file this run replaced: a retry from it would merge the wrong people.
    expect(readdirSync(full).sort()).toEqual(['.filler', 'sc.csv']);
  });

  onTmpfs('--retry-failed merge: one sentence, F as it was, the retry part removed, nothing beside it', async () => {
    const full = emptied();
    const out = join(full, 'sc.ndjson');
    const part = join(full, '.sc.retry-1.ndjson');
    writeFileSync(out, '{"id":1}\n'.repeat(1000));
    writeFileSync(part, '{"id":2}\n'.repeat(1000));
    const before = readFileSync(out, 'utf8');
    fillUpTo(full, PAGE);
    const err = await thrown(() => mergePart(out, part, 'ndjson'));
    oneSentence(err, out);
    expect(readFileSync(out, 'utf8')).toBe(before);
    expect(readdirSync(full).sort()).toEqual(['.filler', 'sc.ndjson']);
  });

  onTmpfs('the lock of a results file: one sentence, no empty lock left to make the next run wait', async () => {
    const full = emptied();
    const target = join(full, 'results.csv');
    fillUpTo(full, 0);
    const err = await thrown(() => acquireLock(target, { command: 'jobfit invite' }));
    oneSentence(err, `${target}.lock`);
    expect(readdirSync(full)).toEqual(['.filler']);
  });

  onTmpfs('webhook listen --sync DB stopped while the queue cannot be written: exit 1, one sentence naming the people not kept', async () => {
    // A sync database does not fit on 64 KiB: a disk of its own, filled once the listener runs.
    const full = newTmpfs('4m');
    closers.push(() => unmountTmpfs(full));
    const db = join(full, 'results.sqlite');
    const ac = new AbortController();
    const m = memoryIO({ env: { JOBFIT_CONFIG_DIR: join(tmp, 'config-sync'), JOBFIT_WEBHOOK_SECRET: SECRET }, signal: ac.signal });
    const done = run(['webhook', 'listen', '--no-stub', '--sync', db], m.io);
    try {
      let ended: number | undefined;
      void done.then((c) => (ended = c));
      const url = await until(() => {
        if (ended !== undefined) throw new Error(`the listener ended (${ended}): ${m.stderr()}`);
        return /Listening for webhook events on (\S+)/.exec(m.stderr())?.[1];
      }, 'the listening URL', 20_000);
      await until(() => m.stderr().includes('Press Ctrl-C'), 'the listener');
      fillUpTo(full, 0);
      const body = event('evt_sync', '');
      // The listener takes the event (and tries to keep it) in the turn it answers.
      expect(await post(url, body, signDelivery(SECRET, { id: 'evt_sync', timestamp: Math.floor(Date.now() / 1000), body }))).toBe(200);
    } finally {
      // Before the batch is applied (300 ms later): the person is neither synced nor on disk.
      ac.abort();
    }
    expect(await done, m.stderr()).toBe(1);
    expect(m.stderr()).toContain('could not keep the people of the events not yet synced');
    expect(m.stderr()).toContain(`1 person from the last events was not synced and could not be kept in ${db}.listen-pending.json (the disk is full (ENOSPC))`);
    expect(m.stderr()).not.toContain('kept in ' + `${db}.listen-pending.json, the next`);
    expect(readdirSync(full).filter((f) => f.includes('jobfit-tmp') || f.endsWith('.json'))).toEqual([]);
  });

  const unforwarded = (n: number): Unforwarded[] =>
    Array.from({ length: n }, (_, i) => ({ id: `evt_${i}`, type: 'invitation.accepted', last_error: 'HTTP 500', headers: {}, body: 'x'.repeat(200) }) as unknown as Unforwarded);

  onTmpfs('the file of events the app did not take (a new one): nothing cut put in place', async () => {
    const full = emptied();
    const dir = join(full, 'webhook-unforwarded');
    fillUpTo(full, PAGE);
    const err = await thrown(() => keepUnforwarded(unforwarded(100), { unforwardedDir: dir }, undefined, new Date()));
    expect(err.code).toBe('ENOSPC');
    expect(readdirSync(dir)).toEqual([]);
  });

  onTmpfs('--unforwarded FILE (appended): all of it or none, the earlier lines as they were', async () => {
    const full = emptied();
    const file = join(full, 'unforwarded.ndjson');
    writeFileSync(file, OLD);
    fillUpTo(full, PAGE);
    const fd = openSync(file, 'a');
    try {
      const err = await thrown(() => keepUnforwarded(unforwarded(100), { unforwardedPath: file, unforwardedDir: full }, fd, new Date()));
      expect(err.code).toBe('ENOSPC');
    } finally {
      closeSync(fd);
    }
    expect(readFileSync(file, 'utf8')).toBe(OLD);
  });

  onTmpfs('webhook listen --log FILE: an event the log cannot take is said, each line whole, and the listener ends with exit 1', async () => {
    const full = emptied();
    const log = join(full, 'events.ndjson');
    const ac = new AbortController();
    const m = memoryIO({ env: { JOBFIT_CONFIG_DIR: join(tmp, 'config-log') }, signal: ac.signal });
    const done = run(['webhook', 'listen', '--no-stub', '--log', log], m.io);
    try {
      const url = await until(() => /Listening for webhook events on (\S+)/.exec(m.stderr())?.[1], 'the listening URL');
      expect(await post(url, event('evt_small', ''))).toBe(200);
      await until(() => readFileSync(log, 'utf8').includes('evt_small'), 'the first event in the log');
      fillUpTo(full, PAGE);
      expect(await post(url, event('evt_large', 'x'.repeat(20_000)))).toBe(200);
      await until(() => m.stderr().includes('evt_large'), 'the warning');
    } finally {
      ac.abort();
    }
    expect(await done, m.stderr()).toBe(1);
    expect(m.stderr()).toContain(`could not append event evt_large to ${log}: the disk is full (ENOSPC)`);
    expect(m.stderr()).toContain(`1 event could not be appended to ${log}: the disk is full (ENOSPC)`);
    const lines = readFileSync(log, 'utf8').split('\n');
    expect(lines.at(-1)).toBe('');
    expect(lines.slice(0, -1).map((l) => (JSON.parse(l) as { id: string }).id)).toEqual(['evt_small']);
  });
});

describe('a queue of events not yet synced that cannot be read whole', () => {
  it('is never taken for an empty one: the listener refuses to start (exit 1, one sentence) and keeps it', async () => {
    const dir = mkdtempSync(join(tmp, 'cut-queue-'));
    const db = join(dir, 'results.sqlite');
    const queue = `${db}.listen-pending.json`;
    // What a cut write left: the start of the ids.
    const cut = '{"invitations":[1000001,1000002,10000';
    writeFileSync(queue, cut);
    const ac = new AbortController();
    const m = memoryIO({ env: { JOBFIT_CONFIG_DIR: join(dir, 'config'), JOBFIT_WEBHOOK_SECRET: SECRET }, signal: ac.signal });
    // Before the fix the listener started on an empty queue: stopped after a while, it said nothing of the file.
    const stop = setTimeout(() => ac.abort(), 8000);
    const code = await run(['webhook', 'listen', '--no-stub', '--port', '0', '--sync', db], m.io);
    clearTimeout(stop);
    expect(code, m.stderr()).toBe(1);
    expect(m.stderr()).toContain(`Cannot read the queue of events not yet synced ${queue}: it is cut or damaged`);
    expect(m.stderr()).toContain('it was left as it is, and the listener did not start.');
    expect(m.stderr()).not.toMatch(/Listening for webhook events|\n\s+at /);
    expect(readFileSync(queue, 'utf8')).toBe(cut);
  });
});

function event(id: string, pad: string): string {
  return JSON.stringify({ id, type: 'invitation.accepted', object: 'event', created_at: '2026-11-22T10:00:00.123Z', api_version: '2.3.0', data: { object: { object: 'invitation', id: 100001, note: pad } } });
}

function post(url: string, body: string, headers: Record<string, string> = {}): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'POST', headers: { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)), ...headers } }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end(body);
  });
}

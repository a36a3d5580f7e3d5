/**
 * People's rows committed many to a transaction (src/sync/commits.ts): a full
 * batch commits at once, a partial one after its delay or on flush, commits
 * run one after another, `done` counts only what committed, and a commit
 * the timer started reports its error.
 */
import { describe, expect, it } from 'vitest';
import { CommitQueue } from '../../src/sync/commits.js';
import type { Writer } from '../../src/sync/store.js';

/** A database that records each transaction's writes, and can be made to fail. */
function fakeDb() {
  const committed: string[][] = [];
  let active = 0;
  let overlapped = false;
  let fail: Error | undefined;
  const db = {
    async transaction(fn: (w: Writer) => Promise<void>) {
      active++;
      if (active > 1) overlapped = true;
      const writes: string[] = [];
      const w = { upsert: async (table: string) => void writes.push(table) } as unknown as Writer;
      try {
        await fn(w);
        await new Promise((r) => setImmediate(r));
        if (fail) throw fail;
        committed.push(writes);
      } finally {
        active--;
      }
    },
  };
  return { db, committed, overlapped: () => overlapped, failWith: (e: Error) => (fail = e) };
}

const put = (table: string) => (w: Writer) => w.upsert(table, ['id'], {}, { inserted: 0, updated: 0, gone: 0 });

describe('CommitQueue', () => {
  it('a full batch is committed before write() resolves', async () => {
    const f = fakeDb();
    const q = new CommitQueue(f.db, () => {}, 2, 60_000);
    await q.write(put('a'));
    expect(f.committed).toEqual([]);
    await q.write(put('b'));
    expect(f.committed).toEqual([['a', 'b']]);
    expect(q.done).toBe(2);
  });

  it('a partial batch is committed after the delay', async () => {
    const f = fakeDb();
    const q = new CommitQueue(f.db, () => {}, 100, 10);
    await q.write(put('a'));
    const deadline = Date.now() + 5000;
    while (q.done === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 5));
    expect(f.committed).toEqual([['a']]);
    expect(q.done).toBe(1);
  });

  it('flush commits what is queued, one transaction after another', async () => {
    const f = fakeDb();
    const q = new CommitQueue(f.db, () => {}, 100, 60_000);
    await q.write(put('a'));
    const first = q.flush();
    await q.write(put('b'));
    await Promise.all([first, q.flush()]);
    expect(f.committed).toEqual([['a'], ['b']]);
    expect(f.overlapped()).toBe(false);
    expect(q.done).toBe(2);
    await q.flush();
    expect(f.committed).toHaveLength(2);
  });

  it('a failed commit counts nothing; one started by the timer reports its error', async () => {
    const f = fakeDb();
    const errors: unknown[] = [];
    const q = new CommitQueue(f.db, (e) => errors.push(e), 100, 5);
    f.failWith(new Error('disk gone'));
    await q.write(put('a'));
    const deadline = Date.now() + 5000;
    while (errors.length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 5));
    expect(errors).toEqual([new Error('disk gone')]);
    expect(q.done).toBe(0);
    await expect(q.flush()).rejects.toThrow('disk gone');
  });
});

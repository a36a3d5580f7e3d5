/**
 * A sync's last steps on a complete list: what the service no longer lists
 * is marked gone (and back when listed again; rows are never deleted), read
 * from the tables a page at a time; then the tables must hold what the lists
 * say (countCheck, plan.ts).
 */
import type { SmallLists } from './accept.js';
import { type IdSet, type ListedItems, present } from './listed.js';
import { countCheck, goneMarks } from './plan.js';
import type { RunState } from './run-state.js';
import { type GoneState, eachGoneState } from './stored.js';

/** Marks gone what the complete list no longer names, and back what it names again; resolves with the test takers listed. */
export async function markGone(s: RunState, items: ListedItems, accepted: Set<number>, small: SmallLists): Promise<IdSet> {
  // Rows are marked, never deleted: results stay readable.
  const at = s.ctx.io.now().toISOString();
  const listedNow = present(items, accepted);
  const marks: Array<['teams' | 'users' | 'invitations' | 'test_takers', { has(id: number): boolean } | undefined]> = [
    ['teams', small.teams],
    ['users', small.users],
    ['invitations', listedNow.invitations],
    ['test_takers', listedNow.testTakers],
  ];
  // What to mark is read a page at a time (ids only, of those that change), then written in one transaction.
  const changes: Array<{ table: string; gone: number[]; back: number[] }> = [];
  for (const [table, listedIds] of marks) {
    if (!listedIds) continue;
    const change = { table, gone: [] as number[], back: [] as number[] };
    await eachGoneState(s.db, table, (rows: GoneState[]) => {
      const { gone, back } = goneMarks(rows, listedIds);
      change.gone.push(...gone);
      change.back.push(...back);
    });
    changes.push(change);
  }
  await s.db.transaction(async (w) => {
    for (const { table, gone, back } of changes) {
      await w.setGone(table, gone, at, s.counts);
      await w.setGone(table, back, null, s.counts);
    }
  });
  return listedNow.testTakers;
}

/** The summary is the tables': a run whose tables do not hold what the lists say (and no item error explains it) fails. */
export async function checkCounts(s: RunState, items: ListedItems, testTakers: IdSet): Promise<void> {
  const [heldInv, heldTakers] = await Promise.all([
    s.db.all<{ n: number }>('SELECT COUNT(*) AS n FROM invitations WHERE gone_at IS NULL'),
    s.db.all<{ n: number }>('SELECT COUNT(*) AS n FROM test_takers WHERE gone_at IS NULL'),
  ]);
  if (s.errors > 0) return;
  const err = countCheck({ invitations: items.length, testTakers: testTakers.size }, { invitations: Number(heldInv[0].n), testTakers: Number(heldTakers[0].n) }, s.db.label);
  if (err) throw err;
}

/**
 * The rows the stub read of one test taker, kept while the database is at
 * the same version (http/cache.ts `version()`: this turn of the event loop,
 * no write here since). A report asks for a person's scorecard and test
 * taker together (completion, docs/performance.md "Fairness report"): both
 * answers are made of the same rows (the test taker, its invitation, its
 * assigned assessments, its career navigation profile), so the second is
 * answered from the first's reads instead of reading them again. At the same
 * version the rows are those a read would return, so every answer is byte for
 * byte what it was.
 */
import type { AssignedRow, InvitationRow, ProfileRow, TestTakerRow } from './views.js';

/** What was read of one test taker (account and id); a field not read yet is undefined, a row found missing is null. */
export interface TakerReads {
  row?: TestTakerRow | null;
  invitation?: InvitationRow | null;
  assigned?: AssignedRow[];
  profile?: ProfileRow | null;
}

/** Enough for the requests of a turn (a report keeps a few dozen in flight); past it, the reads start over. */
const MAX_TAKERS = 512;

export class TakerMemo {
  private version = '';
  private readonly reads = new Map<string, TakerReads>();

  /** The reads of test taker `id` of `accountId` at `version` (an empty record to fill when there are none). */
  of(version: string, accountId: number, id: number): TakerReads {
    if (version !== this.version) {
      this.reads.clear();
      this.version = version;
    }
    const key = `${accountId}:${id}`;
    let r = this.reads.get(key);
    if (r === undefined) {
      if (this.reads.size >= MAX_TAKERS) this.reads.clear();
      r = {};
      this.reads.set(key, r);
    }
    return r;
  }
}

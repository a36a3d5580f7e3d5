/**
 * The people of the fault server (test/helpers/fault-server.ts): one data
 * model for its worlds. A person is an invitation (`Inv`, lists-types.ts),
 * accepted or not, with the test taker it became and what that test taker
 * completed. The lists world answers from it as exports, reports and bulk
 * invite read them; the sync world (sync-world.ts) answers the same people
 * as a sync reads them, with its switches.
 */
import type { Inv } from './lists-types.js';

/** The first invitation id of every world; takers are numbered per world (`takerId`). */
export const FIRST_INVITATION = 50001;

export interface People {
  /** Oldest first: created_at orders the lists (newest first). */
  invitations: Inv[];
  create(c: { email: string; first?: string; last?: string; team?: number; custom_id?: string | null; created_at?: string }): Inv;
  remove(id: number): void;
  /** The person accepts: a test taker (`takerId`, or the next of the world's), who completed both assessments or not yet. */
  accept(id: number, completed?: boolean, o?: { takerId?: number; at?: string }): Inv;
  /** Accepted people, newest acceptance first (the test-taker list's order). */
  takers(): Inv[];
  byTaker(takerId: number | string): Inv | undefined;
}

export function people(o: { firstTaker: number }): People {
  let nextInv = FIRST_INVITATION;
  let nextTaker = o.firstTaker;
  let acceptances = 0;
  const p: People = {
    invitations: [],
    create(c) {
      // Never older than the newest: created_at orders the list.
      const last = p.invitations.at(-1);
      const now = Math.max(Date.now(), last ? Date.parse(last.created_at) + 1 : 0);
      const inv: Inv = {
        id: nextInv++,
        first_name: c.first ?? 'First',
        last_name: c.last ?? 'Last',
        email: c.email,
        team_id: c.team ?? 1,
        custom_id: c.custom_id ?? null,
        created_at: c.created_at ?? new Date(now).toISOString(),
        accepted_at: null,
        test_taker_id: null,
        completed: false,
      };
      p.invitations.push(inv);
      return inv;
    },
    remove(id) {
      p.invitations = p.invitations.filter((i) => i.id !== id);
    },
    accept(id, completed = false, a = {}) {
      const inv = p.invitations.find((i) => i.id === id);
      if (!inv) throw new Error(`no invitation ${id}`);
      inv.accepted_at = a.at ?? new Date().toISOString();
      inv.test_taker_id = a.takerId ?? nextTaker++;
      inv.accepted_seq = ++acceptances;
      inv.completed = completed;
      return inv;
    },
    takers() {
      return p.invitations.filter((i) => i.test_taker_id !== null).sort((a, b) => (b.accepted_seq ?? 0) - (a.accepted_seq ?? 0));
    },
    byTaker(takerId) {
      return p.invitations.find((i) => i.test_taker_id !== null && String(i.test_taker_id) === String(takerId));
    },
  };
  return p;
}

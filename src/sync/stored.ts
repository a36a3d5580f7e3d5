/**
 * What the database already holds, as the sync plan (src/sync/plan.ts)
 * compares it with the invitation list: read a slice of the list at a time,
 * by key (each lookup is the table's primary key), never a whole table. A
 * run holds only the slice it is planning or fetching, so its memory does
 * not grow with the people the database holds (issue 47: a no-change sync of
 * 100,000 people held every row of five tables in maps, 254 MB).
 */
import type { Listed } from './listed.js';
import type { SyncStore } from './store.js';

export interface StoredInvitation {
  id: number;
  list_hash: string;
  basis: string;
  gone_at: string | null;
}

export interface StoredTestTaker {
  id: number;
  gone_at: string | null;
  list_hash: string;
  basis: string;
  completed_tests: string;
  assessments_open: number;
  career_navigation_profile_id: string | null;
}

/** What the database holds that the plan compares with the list (for the items of one slice). */
export interface Stored {
  invitations: Map<number, StoredInvitation>;
  takers: Map<number, StoredTestTaker>;
  /** `basis` of each scorecard, keyed `testTakerId/scoreProfile`. */
  cards: Map<string, string>;
  /** `basis` of each job-fit report, keyed by test taker. */
  reports: Map<number, string>;
  /** Ids of the career navigation profiles stored. */
  profiles: Set<string>;
}

/** Items a slice holds: what one lookup of each table asks for (an `IN` list of this many keys). */
export const SLICE = 500;

/**
 * What the database holds for these list items (at most SLICE of them): their
 * invitations, their test takers, those test takers' results and career
 * navigation profiles. Nothing is read for an empty slice.
 */
export async function storedFor(db: Pick<SyncStore, 'allIn'>, items: Iterable<Listed>): Promise<Stored> {
  const invIds = new Set<number>();
  const takerIds = new Set<number>();
  for (const item of items) {
    invIds.add(item.id);
    if (item.takerId !== null) takerIds.add(item.takerId);
  }
  const stored: Stored = { invitations: new Map(), takers: new Map(), cards: new Map(), reports: new Map(), profiles: new Set() };
  if (invIds.size > 0) {
    for (const r of await db.allIn<StoredInvitation>('SELECT id, list_hash, basis, gone_at FROM invitations', 'id', [...invIds])) {
      stored.invitations.set(r.id, { id: r.id, list_hash: r.list_hash, basis: r.basis, gone_at: r.gone_at });
    }
  }
  if (takerIds.size === 0) return stored;
  const takers = [...takerIds];
  const profileIds = new Set<string>();
  for (const r of await db.allIn<StoredTestTaker>(
    'SELECT id, list_hash, basis, completed_tests, assessments_open, career_navigation_profile_id, gone_at FROM test_takers',
    'id',
    takers,
  )) {
    stored.takers.set(r.id, r);
    if (r.career_navigation_profile_id !== null) profileIds.add(r.career_navigation_profile_id);
  }
  for (const r of await db.allIn<{ id: number; sp: string; basis: string }>('SELECT test_taker_id AS id, score_profile AS sp, basis FROM scorecards', 'test_taker_id', takers)) {
    stored.cards.set(`${r.id}/${r.sp}`, r.basis);
  }
  for (const r of await db.allIn<{ id: number; basis: string }>('SELECT test_taker_id AS id, basis FROM job_fit_reports', 'test_taker_id', takers)) stored.reports.set(r.id, r.basis);
  if (profileIds.size > 0) for (const r of await db.allIn<{ id: string }>('SELECT id FROM career_navigation_profiles', 'id', [...profileIds])) stored.profiles.add(r.id);
  return stored;
}

/** A row as the gone marks read it. */
export interface GoneState {
  id: number;
  gone_at: string | null;
}

/** Every row's id and gone mark of a table keyed by an integer id, a page at a time in key order (`fn` hears each page). */
export async function eachGoneState(db: Pick<SyncStore, 'all'>, table: 'teams' | 'users' | 'invitations' | 'test_takers', fn: (rows: GoneState[]) => void): Promise<void> {
  const page = 5000;
  let after: number | undefined;
  for (;;) {
    const where = after === undefined ? '' : ` WHERE id > ${Math.trunc(after)}`;
    const rows = await db.all<GoneState>(`SELECT id, gone_at FROM ${table}${where} ORDER BY id LIMIT ${page}`);
    if (rows.length === 0) return;
    fn(rows.map((r) => ({ id: Number(r.id), gone_at: r.gone_at })));
    if (rows.length < page) return;
    after = Number(rows[rows.length - 1].id);
  }
}

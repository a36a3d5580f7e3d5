/**
 * The join of the complete export with the self-identification file, person
 * by person, as the export arrives. A person is one join value (an email,
 * person_id or custom_id): invited twice, they count once, completed when
 * any of their test takers completed every assigned assessment, scored with
 * their best score. An invitation without a join value is a person of its
 * own, with no row. Only counts leave this room (analysis.ts).
 */
import { type JoinKey, type SelfId, joinValue } from './selfid.js';

export interface Person {
  /** The answers of the file's row (-1: undisclosed), or undefined: no row. */
  answers: Int32Array | undefined;
  completed: boolean;
  fit: number | null;
  stars: number | null;
}

interface InvitationFields {
  id: number | string;
  email?: string | null;
  person_id?: string | null;
  custom_id?: string | null;
}

const maxOf = (a: number | null, b: number | null | undefined): number | null => (typeof b === 'number' && Number.isFinite(b) ? (a === null ? b : Math.max(a, b)) : a);

export class FairnessJoin {
  readonly people = new Map<string, Person>();
  private readonly byTaker = new Map<number, Person>();
  /** Join values of the file that some invitation matched. */
  private readonly matched = new Set<string>();
  readonly join: JoinKey;

  constructor(readonly selfId: SelfId) {
    this.join = selfId.join;
  }

  addInvitation(inv: InvitationFields, testTakerId: number | null): void {
    const v = joinValue(this.join, inv[this.join]);
    const key = v === undefined ? `\u0000invitation ${String(inv.id)}` : v;
    let p = this.people.get(key);
    if (!p) {
      const answers = v === undefined ? undefined : this.selfId.answers.get(v);
      if (answers && v !== undefined) this.matched.add(v);
      p = { answers, completed: false, fit: null, stars: null };
      this.people.set(key, p);
    }
    if (testTakerId !== null) this.byTaker.set(testTakerId, p);
  }

  addScorecard(testTakerId: number, card: { five_star_score?: number | null; job_fit_percentage?: number | null }): void {
    const p = this.byTaker.get(testTakerId);
    if (!p) return;
    p.fit = maxOf(p.fit, card.job_fit_percentage);
    p.stars = maxOf(p.stars, card.five_star_score);
  }

  /** Whether a test taker's completion can change the report: their person has a row and is not known to be complete yet. */
  needsCompletion(testTakerId: number): boolean {
    const p = this.byTaker.get(testTakerId);
    return p !== undefined && p.answers !== undefined && !p.completed;
  }

  /** Completed: every assigned assessment has a completed_at (and there is at least one). */
  addTestTaker(testTakerId: number, taker: { assigned_assessments?: Array<{ completed_at?: string | null }> }): void {
    const p = this.byTaker.get(testTakerId);
    const a = taker.assigned_assessments;
    if (p && Array.isArray(a) && a.length > 0 && a.every((x) => typeof x.completed_at === 'string')) p.completed = true;
  }

  /** Rows of the file that no invitation matched. */
  unmatchedRows(): number {
    return this.selfId.answers.size - this.matched.size;
  }
}

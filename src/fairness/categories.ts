/**
 * The categories of one self-identification column: answers compared without
 * case or extra spaces ("female", "Female " are one category, shown as first
 * written), and the answers that say nothing (blank, "Prefer not to say",
 * "Decline to self-identify", "Unknown", …), which form the undisclosed group.
 */

const norm = (v: string): string => v.normalize('NFKC').trim().replace(/\s+/g, ' ').toLowerCase();

const UNDISCLOSED = new Set(
  [
    '',
    '-',
    'n/a',
    'na',
    'none given',
    'unknown',
    'undisclosed',
    'not disclosed',
    'not specified',
    'not provided',
    'not answered',
    'no answer',
    'prefer not to say',
    'prefer not to answer',
    'prefer not to disclose',
    'i prefer not to say',
    'decline',
    'declined',
    'decline to state',
    'declined to state',
    'decline to answer',
    'decline to self-identify',
    'declined to self-identify',
    'decline to self identify',
    'i do not wish to self-identify',
    'i don’t wish to answer',
    "i don't wish to answer",
  ].map(norm),
);

/** Whether an answer says nothing (counted as undisclosed, never dropped). */
export const isUndisclosed = (v: string): boolean => UNDISCLOSED.has(norm(v));

export class Categories {
  private readonly index = new Map<string, number>();
  readonly labels: string[] = [];

  /** The category of an answer, added when new. */
  indexOf(v: string): number {
    const k = norm(v);
    let i = this.index.get(k);
    if (i === undefined) {
      i = this.labels.length;
      this.index.set(k, i);
      this.labels.push(v.normalize('NFKC').trim().replace(/\s+/g, ' '));
    }
    return i;
  }
}

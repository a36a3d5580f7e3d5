/**
 * The 201 check of bulk invite, in batches (issue 43, item 2's cost). Each
 * 201's id must be confirmed to be an invitation for the row's email before
 * it is recorded. One at a time that is a `GET /invitations/ID` per row (a
 * third of the rate); here the 201s of many rows wait a moment together and
 * one `GET /invitations` (the account's newest 50, no filter) confirms every
 * id it lists with the row's email. An id the list does not confirm (not
 * among the newest 50, listed with another email, the list failed or was no
 * list) is not failed here: it goes on to the one-at-a-time read-back and
 * the email look-up (the client's confirmCreated), as before.
 *
 * As strict as the read-back: an id is confirmed only by the service saying,
 * in the answer to a read, that the invitation with exactly this id carries
 * exactly this email (trimmed, case folded, nothing else: a service's
 * folding never confirms). The list's filter is not used, so a partial or
 * folding email filter cannot matter.
 */
import { readId } from '../api/ids.js';
import type { CreatedCheck } from '../client/client.js';

/** The reference: a list without a filter holds up to 50 items, newest first. */
const LIST_SIZE = 50;
/** Below this many rows a batch could hold, batching does not pay: the one-at-a-time read-back. */
const MIN_BATCH = 8;

/** The list read a batch makes (the client's listInvitations). */
export interface NewestInvitations {
  listInvitations(query: Record<string, never>, signal?: AbortSignal): Promise<{ data?: unknown }>;
}


const keyOf = (email: string) => email.trim().toLowerCase();

interface Waiting {
  id: number;
  email: string;
  done: (confirmed: boolean) => void;
}

/** An id and its email as a list item states them, or undefined for an item that is no invitation or has no id. */
function stated(item: unknown): { id: number; email: string } | undefined {
  if (item === null || typeof item !== 'object') return undefined;
  const i = item as { object?: unknown; id?: unknown; email?: unknown };
  if (i.object !== undefined && i.object !== 'invitation_list_item') return undefined;
  if (typeof i.email !== 'string') return undefined;
  try {
    return { id: readId(i.id), email: keyOf(i.email) };
  } catch {
    return undefined;
  }
}

export class CreatedBatch {
  private waiting: Waiting[] = [];
  private timer: NodeJS.Timeout | undefined;
  /** Lists asked, ids confirmed by them, ids sent on to the read-back (for -v and the tests). */
  readonly stats = { lists: 0, confirmed: 0, unconfirmed: 0 };

  /**
   * `concurrency`: the POSTs that may be in flight while a batch's list is
   * read (each may push one of the batch out of the newest 50). `waitMs`: the
   * longest a 201 waits for its batch to fill.
   */
  private constructor(
    private readonly api: NewestInvitations,
    private readonly size: number,
    private readonly waitMs: number,
  ) {}

  /** A batcher for a run of this concurrency, or undefined when a batch could not hold enough rows to pay. */
  static forRun(api: NewestInvitations, concurrency: number, waitMs = 25): CreatedBatch | undefined {
    const size = LIST_SIZE - concurrency - 2;
    return size >= MIN_BATCH ? new CreatedBatch(api, size, waitMs) : undefined;
  }

  /** The check to give the client (createInvitationDetailed). */
  readonly check: CreatedCheck = (id, email, signal) =>
    new Promise<boolean>((done) => {
      if (signal?.aborted) return done(false);
      this.waiting.push({ id, email: keyOf(email), done });
      if (this.waiting.length >= this.size) this.flush(signal);
      else this.timer ??= setTimeout(() => this.flush(signal), this.waitMs);
    });

  /** Reads the newest invitations once for every 201 waiting. */
  private flush(signal?: AbortSignal): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    const batch = this.waiting;
    this.waiting = [];
    if (batch.length === 0) return;
    this.stats.lists++;
    this.api.listInvitations({}, signal).then(
      (list) => this.settle(batch, Array.isArray(list?.data) ? list.data : []),
      () => this.settle(batch, []),
    );
  }

  private settle(batch: Waiting[], items: unknown[]): void {
    const emailOf = new Map<number, string>();
    for (const item of items) {
      const s = stated(item);
      // An id listed twice with two emails confirms neither.
      if (s) emailOf.set(s.id, emailOf.has(s.id) && emailOf.get(s.id) !== s.email ? '' : s.email);
    }
    for (const w of batch) {
      const ok = emailOf.get(w.id) === w.email;
      this.stats[ok ? 'confirmed' : 'unconfirmed']++;
      w.done(ok);
    }
  }
}

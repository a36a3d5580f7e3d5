/**
 * The replay window: the ids of events seen within twice the signature
 * tolerance, up to MAX_REMEMBERED_IDS, so an event is shown once.
 */
import { createHash } from 'node:crypto';

/** Event ids remembered for the duplicate check at most; past it (all still within the window) a delivery gets 503. */
export const MAX_REMEMBERED_IDS = 100_000;

/** Ids up to this long are remembered as they are (the stub's are 28 characters). */
const KEPT_ID_CHARS = 64;

/**
 * The key an id is remembered by: the id itself, or for a longer one (up to
 * 200 characters) a space and the base64 of its SHA-256. A 200-character id
 * kept whole costs ~300 bytes in the window (30 MB at 100,000 ids), its hash
 * ~150. No id has a space, so no id can pass for another's hash.
 */
function idKey(id: string): string {
  return id.length <= KEPT_ID_CHARS ? id : ` ${createHash('sha256').update(id).digest('base64')}`;
}

/**
 * The duplicate check: ids seen within the replay window. A signed delivery
 * is taken only within ±tolerance of its timestamp, so a replay of it comes
 * within twice the tolerance of the first delivery: remembering ids that long
 * catches every replay. An id the app has not taken yet (`queued`) is kept
 * past its time. Long ids are kept by their hash (idKey).
 */
export class ReplayWindow {
  /** Insertion-ordered by arrival: the first entries are the first to expire. */
  private readonly seen = new Map<string, { until: number; state: 'queued' | 'done' }>();

  constructor(
    private readonly rememberMs: number,
    readonly maxIds: number,
  ) {}

  /** Forgets the ids whose time is up at `t` (but not those still queued). */
  forget(t: number): void {
    for (const [key, s] of this.seen) {
      if (s.until > t) break;
      if (s.state === 'queued') continue;
      this.seen.delete(key);
    }
  }

  /** `queued`: waiting for (or being retried to) the app; `done`: the app took it, or nothing to forward. */
  state(id: string): 'queued' | 'done' | undefined {
    return this.seen.get(idKey(id))?.state;
  }

  /** No room for another id (all remembered ones still within the window). */
  full(): boolean {
    return this.seen.size >= this.maxIds;
  }

  remember(id: string, t: number, state: 'queued' | 'done'): void {
    this.seen.set(idKey(id), { until: t + this.rememberMs, state });
  }

  /** The app took it. */
  done(id: string): void {
    const s = this.seen.get(idKey(id));
    if (s) s.state = 'done';
  }
}

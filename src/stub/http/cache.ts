/**
 * What the stub remembers between requests while the database is unchanged:
 *
 * - the database version, asked once per turn of the event loop, not per
 *   request: the requests that arrive together share it unless this process
 *   writes in between (store.writes moves); another process's write is seen
 *   on the next turn;
 * - key lookups and the configuration reads of the write path (inviter by
 *   email, team, template: `refs`), kept while neither another process nor
 *   any write here other than a new invitation has changed the database (a
 *   reset anywhere rewrites api_keys and moves the version), so a POST load
 *   does not look its key and inviter up again after every commit;
 * - serialised bodies of live GETs: lists and results are read far more
 *   often than they change.
 */
import type { GroupCommit } from '../group-commit.js';
import type { Store } from '../store.js';
import { type Auth, authenticate } from './auth.js';
import type { Reply } from './reply.js';
import { TakerMemo } from '../taker-reads.js';

const CACHE_MAX = 2000;
/**
 * The bodies kept, in bytes: 2,000 job-fit reports are ~40 MB, which the
 * embedded stub held in the command's own process through an export that
 * reads each one once (a `job-fit --all` at 10,000 peaked at 164 MB).
 */
const BODY_BYTES_MAX = 8 << 20;

export class StubCaches {
  /** Configuration reads (AppOptions → Call.refs); emptied with the key lookups. */
  readonly refs = new Map<string, unknown>();
  /** The rows read of each test taker at the current version (taker-reads.ts). */
  readonly takers = new TakerMemo();
  private readonly auths = new Map<string, Auth | Reply>();
  private authsVersion = '';
  private readonly bodies = new Map<string, { version: string; status: number; body: Buffer }>();
  private bodyBytes = 0;
  // data_version moves when another connection commits; total_changes() when this one writes.
  // `config` leaves out the rows the group commit wrote (new invitations and
  // their assessments and outbox lines), which touch neither keys nor configuration.
  private config = '';
  private turnVersion = '';
  private versionWrites = -1;

  constructor(
    private readonly store: Store,
    private readonly commits: GroupCommit,
  ) {}

  /** The database's version now (see above); call before auth(). */
  version(): string {
    if (this.versionWrites === this.store.writes) return this.turnVersion;
    const r = this.store.get<{ v: number; c: number }>('SELECT data_version AS v, total_changes() AS c FROM pragma_data_version')!;
    this.config = `${r.v}:${r.c - this.commits.ownChanges}`;
    this.turnVersion = `${r.v}:${r.c}`;
    this.versionWrites = this.store.writes;
    // Unref'd: the next turn forgets it while anything else runs (a server always does); with nothing else
    // to do (the embedded stub after a command's last answer), node need not turn again for it.
    setImmediate(() => {
      this.versionWrites = -1;
    }).unref();
    return this.turnVersion;
  }

  /** The caller of an Authorization header, remembered while the configuration is unchanged. */
  auth(header: string | undefined): Auth | Reply {
    if (this.authsVersion !== this.config || this.auths.size >= CACHE_MAX || this.refs.size >= CACHE_MAX) {
      this.auths.clear();
      this.refs.clear();
      this.authsVersion = this.config;
    }
    const k = header ?? '';
    let a = this.auths.get(k);
    if (a === undefined) {
      a = authenticate(this.store, header);
      this.auths.set(k, a);
    }
    return a;
  }

  /** The serialised body answered for `key` at `version`, if any. */
  body(key: string, version: string): Reply | undefined {
    const hit = this.bodies.get(key);
    return hit && hit.version === version ? { status: hit.status, raw: hit.body } : undefined;
  }

  remember(key: string, version: string, status: number, body: Buffer): void {
    this.bodyBytes -= this.bodies.get(key)?.body.length ?? 0;
    this.bodies.delete(key);
    if (this.bodies.size >= CACHE_MAX || this.bodyBytes + body.length > BODY_BYTES_MAX) {
      this.bodies.clear();
      this.bodyBytes = 0;
    }
    if (body.length > BODY_BYTES_MAX) return;
    this.bodies.set(key, { version, status, body });
    this.bodyBytes += body.length;
  }
}

/**
 * Opening the stub's store and giving it its seed. store.ts knows the schema
 * and the connection, not the seed; this module is the one place that puts
 * the seed in (on first open, on reset, and `stub seed`'s extra people).
 * seed-adapter.ts (the seed as rows, and zod through seed.ts) is loaded only
 * when seeding: serving an already seeded store needs none of it.
 */
import type { SeedPeopleOptions, SeedPeopleResult } from './seed-adapter.js';
import { Store } from './store.js';

/** The `seeded` meta value: the seed of this schema is in. */
const SEED_VERSION = '1';
/** Meta rows the seed and the lifecycle keep: gone with the data on reset. */
const SEED_META = ['seeded', 'cnp_seq', 'people_next_index'];

const seedAdapter = () => import('./seed-adapter.js');

/** A store opened by openStore: seeded, and able to restore the seed or add people. */
export class SeededStore extends Store {
  get seeded(): boolean {
    return this.meta('seeded') === SEED_VERSION;
  }

  /** Seeds a fresh store. Two processes opening a new directory at once seed it exactly once. */
  async ensureSeeded(): Promise<void> {
    if (this.seeded) return;
    const { writeSeed } = await seedAdapter();
    this.withLargeCache(() =>
      this.write(() => {
        if (this.seeded) return;
        this.fill(writeSeed);
      }),
    );
  }

  /** Restores the seed: every record the service or a command wrote is gone. */
  async reset(): Promise<void> {
    const { writeSeed } = await seedAdapter();
    this.refCache.clear();
    this.withLargeCache(() =>
      this.write(() => {
        this.clear();
        this.run(`DELETE FROM meta WHERE key IN (${SEED_META.map(() => '?').join(', ')})`, ...SEED_META);
        this.fill(writeSeed);
      }),
    );
  }

  /**
   * Adds `count` invitations (with test takers, completions and profiles per
   * the state mix) to a team: prepared statements in one transaction, about a
   * second per 100,000. No events and no outbox: seeded history, not activity.
   */
  async seedPeople(accountId: number, teamId: number, count: number, opts: SeedPeopleOptions = {}): Promise<SeedPeopleResult> {
    const { seedPeopleRows } = await seedAdapter();
    return this.withLargeCache(() => this.write(() => seedPeopleRows(this, accountId, teamId, count, opts)));
  }

  private fill(writeSeed: (store: Store) => void): void {
    this.startIdRanges();
    writeSeed(this);
    this.setMeta('seeded', SEED_VERSION);
  }
}

/** Opens the store of a data directory, creating and seeding it on first use. */
export async function openStore(dataDir: string): Promise<SeededStore> {
  const store = new SeededStore(dataDir);
  try {
    await store.ensureSeeded();
  } catch (err) {
    store.close();
    throw store.diskError(err) ?? err;
  }
  return store;
}

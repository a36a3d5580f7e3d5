import { afterAll, beforeAll } from 'vitest';

/** Something the tests of a file share: started before them (and handed to `started`), stopped after. */
export function perFile<T>(start: () => Promise<T>, stop: (t: T) => Promise<void>, started: (t: T) => void): void {
  let held: T | undefined;
  beforeAll(async () => {
    held = await start();
    started(held);
  });
  afterAll(async () => {
    if (held !== undefined) await stop(held);
  });
}

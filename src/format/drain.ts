/**
 * Waiting for an output to take more, the one way every writer of src/format
 * does it (the lists of output.ts, the report pages of html/, the workbook of
 * xlsx.ts): its own module, so that a writer loaded on demand does not import
 * the output module that loads it.
 */

/**
 * Resolves when `out` can take more: waits only while the stream still says
 * it needs a drain. A caller that ignored write()'s answer may come after the
 * 'drain' already fired, and waiting for another would wait forever (an
 * export into a pipe then ended with exit 13 instead of its incomplete mark).
 * A stream that does not say (a test's fake) is taken at write()'s word (`wasFull`).
 *
 * Nor does it wait on a stream whose write already failed (`failed`): node's
 * stdout survives its own errors (its destroy undoes itself), so after a
 * failed write larger than its buffer (a full disk behind `> FILE`) it still
 * says it needs a drain, its 'error' and 'close' are past, and no 'drain' comes.
 */
export function untilDrained(out: unknown, wasFull: boolean, failed?: () => unknown): Promise<void> {
  const stream = out as { writableNeedDrain?: boolean; once?: (event: string, cb: () => void) => void; off?: (event: string, cb: () => void) => void };
  if (!(stream.writableNeedDrain ?? wasFull) || typeof stream.once !== 'function' || failed?.()) return Promise.resolve();
  return new Promise<void>((resolve) => {
    const done = () => {
      for (const e of ['drain', 'close', 'error']) stream.off?.(e, done);
      resolve();
    };
    for (const e of ['drain', 'close', 'error']) stream.once?.(e, done);
  });
}

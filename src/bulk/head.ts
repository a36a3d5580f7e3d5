/**
 * The head of a bulk run's input, read before the run connects: the header
 * found and mapped as far as that needs no service, and the first chunk's
 * records. So an empty file, a header with no rows, bytes that are not
 * UTF-8 in the first chunk, a `--sheet` the workbook does not have, and a
 * header that `--map` or the required columns do not fit are refused before
 * the embedded stub starts or a key is read (run.ts, prepareRun). The
 * validation pass goes on with the same reader from where the head stopped:
 * the file is not read twice for it, and no more of it is held than before.
 */
import { UsageError } from '../core/errors.js';
import { isHeaderRow, mapHeader, type Maps } from './columns.js';
import { type InputOptions, readInputBatches } from './input.js';
import type { CsvMeta, CsvRecord } from './reader.js';

export interface InputHead {
  meta: CsvMeta;
  /**
   * Tells the notes said while the head was read (a title block skipped, the
   * sheet read), and later ones as they come: called by the validation
   * pass, so they follow what the run says when it connects, as they did
   * when the head was read there.
   */
  tell(): void;
  /** The file's records, a batch at a time, from the first (read with the head); once. */
  batches(): AsyncGenerator<CsvRecord[]>;
  /** Stops the reader when the run ends before its validation pass (a refusal, a failed connection). */
  close(): void;
}

/**
 * Reads the header and the first batch of records. Refuses (exit 2) what
 * they settle: those the readers refuse (empty, not UTF-8 or not a CSV at
 * all, no such sheet, a --header-row that is blank), the header's mapping
 * (mapHeader; the inviter too when `haveInviter` is false: neither
 * --created-by nor the profile's default names one), and a header with no rows. A note said while reading is told
 * (`say`) before the refusal.
 */
export async function readHead(path: string, label: string, opts: Pick<InputOptions, 'sheet' | 'headerRow'>, maps: Maps, say: (text: string) => void, haveInviter = true): Promise<InputHead> {
  const held: string[] = [];
  let told = false;
  const tell = () => {
    told = true;
    for (const t of held.splice(0)) say(t);
  };
  let meta: CsvMeta | undefined;
  const onHeader = (m: CsvMeta) => {
    meta = m;
    // haveInviter: --created-by or the profile's default, when the caller knows it (else the validation pass checks).
    mapHeader(m.header, maps, { haveInviter });
  };
  const note = (t: string) => (told ? say(t) : held.push(t));
  const reader = readInputBatches(path, label, onHeader, { ...opts, isHeader: (cells) => isHeaderRow(cells, maps), note });
  let first: IteratorResult<CsvRecord[]>;
  try {
    first = await reader.next();
  } catch (err) {
    tell();
    throw err;
  }
  // A dry run too: "0 rows, exit 0" would pass a check that the real run then refuses.
  if (first.done) {
    tell();
    throw new UsageError(`${label} has a header but no rows.`, 'add one line per participant under the header');
  }
  const firstBatch = first.value;
  return {
    // The readers find the header (onHeader) before their first record, or refuse the file as empty.
    meta: meta!,
    tell,
    async *batches() {
      yield firstBatch;
      yield* reader;
    },
    close() {
      reader.return(undefined).catch(() => {});
    },
  };
}

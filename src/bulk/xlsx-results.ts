/**
 * Results (and --errors) as a workbook when the path ends in `.xlsx`.
 *
 * A workbook cannot be appended to and is only readable once complete, so
 * the rows are kept exactly as the CSV results file keeps them (in order,
 * through ResultsWriter's window) but as JSON lines in its temporary file
 * (random name beside the target, owner-only); when the run ends, that file
 * becomes the workbook (streamed: memory stays flat), written through the
 * one writer path of every `--out` (openOutFile: its size checked against the
 * bytes produced, synced, renamed over the target). A run that fails or is
 * refused leaves the previous file as it was, as for CSV.
 *
 * Cells are never neutralised with a quote (no text cell of a workbook is a
 * formula): the workbook holds the text as read. `row` and `invitation_id`
 * are integers; the assessment URL a link; our other cells text.
 */
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import type { Writable } from 'node:stream';
import { openOutFile } from '../export/out-file.js';
import { XlsxBook } from '../format/xlsx.js';
import { RESULT_COLUMNS, ResultsWriter } from './results.js';

export const isXlsxPath = (path: string) => /\.xlsx$/i.test(path);

const INTEGER_COLUMNS = new Set(['row', 'line', 'invitation_id', 'jobfit_row', 'jobfit_line', 'jobfit_invitation_id']);

class XlsxResultsWriter extends ResultsWriter {
  private readonly sheet: string;
  private readonly ours: number;

  constructor(path: string, header: string[], columns: readonly string[], what: string, sheet: string) {
    // The target is checked (and refused) here, before anything is sent; the rows wait in the writer's temporary file.
    super(path, header, ',', false, undefined, columns, what);
    this.sheet = sheet;
    this.ours = columns.length;
  }

  protected override format(cells: string[]): string {
    return `${JSON.stringify(cells)}\n`;
  }

  override async close(keep = true): Promise<void> {
    if (!keep || this.failed) {
      super.close(false);
      return;
    }
    try {
      const rows = this.closeLines();
      const book = openOutFile(this.path, `the ${this.what}`);
      try {
        await writeWorkbook(rows, book.stream, book.failed, this.sheet, this.ours);
        await book.commit();
      } catch (err) {
        await book.discard();
        throw err;
      }
    } finally {
      this.dropLines();
    }
  }
}

async function writeWorkbook(rowsFile: string, out: Writable, writeError: () => Error | undefined, sheetName: string, ours: number): Promise<void> {
  const failed = new Promise<never>((_, reject) => out.once('error', reject));
  failed.catch(() => {});
  const book = await XlsxBook.open(out, writeError);
  const lines = createInterface({ input: createReadStream(rowsFile, { encoding: 'utf8' }), crlfDelay: Infinity });
  let sheet: ReturnType<XlsxBook['addSheet']> | undefined;
  let ints: boolean[] = [];
  for await (const line of lines) {
    if (!line) continue;
    const cells = JSON.parse(line) as string[];
    if (!sheet) {
      sheet = book.addSheet(sheetName, cells);
      // Only our columns (after the input's) are turned into numbers.
      ints = cells.map((h, i) => INTEGER_COLUMNS.has(h) && i >= cells.length - ours);
      continue;
    }
    sheet.add(cells.map((c, i) => (ints[i] && /^\d{1,15}$/.test(c) ? Number(c) : c)));
    // Let the zip take what was written: the rows are read far faster than they are deflated.
    if (sheet.rows % 1000 === 0) await new Promise((r) => setImmediate(r));
  }
  (sheet ?? book.addSheet(sheetName, [])).end();
  // The stream is ended, checked and renamed by the caller (OutFile.commit).
  await Promise.race([book.finish(), failed]);
}

/**
 * The results (or errors) file of a bulk run: CSV (ResultsWriter), or a
 * workbook when `path` ends in .xlsx.
 */
export function createResultsWriter(
  path: string,
  header: string[],
  delimiter: string,
  bom: boolean,
  onNeutralised?: (row: number, col: number, text: string) => void,
  columns: readonly string[] = RESULT_COLUMNS,
  what = 'results file',
): ResultsWriter {
  if (isXlsxPath(path)) return new XlsxResultsWriter(path, header, columns, what, what === 'results file' ? 'Results' : 'Invalid rows');
  return new ResultsWriter(path, header, delimiter, bom, onNeutralised, columns, what);
}

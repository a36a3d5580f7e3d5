/**
 * The files an assistant may name. A tool call can come from text a stranger
 * planted (a candidate's name read back into the context), so:
 * - `out` is a new file with a data file's name (.json, .csv, .xlsx): never
 *   over a file that is there, never a name a shell or a program would run;
 * - a file a command reads (a flag `--x <file>`: invite_csv's `file`,
 *   group_report's `fairness`) is a spreadsheet's name (.csv, .tsv, .txt,
 *   .xlsx), never standard input (the MCP stream itself) nor any other file,
 *   whose lines a dry run or a refusal would quote back.
 * A run that goes on (--resume, --retry-failed) reuses its own results file.
 */
import { existsSync } from 'node:fs';
import type { Slot } from './derive.js';

const OUT_NAME = /\.(json|csv|xlsx)$/i;
const SHEET_NAME = /\.(csv|tsv|txt|xlsx)$/i;

export interface PathProblem {
  message: string;
  hint: string;
}

/** The inputs that name a file the command reads: its flags that take `<file…>`, but --out. */
const readsFile = (slot: Slot) => slot.key !== 'out' && /<file/.test(slot.meta?.flag ?? '');

export function pathProblem(input: Record<string, unknown>, slots: readonly Slot[]): PathProblem | undefined {
  for (const slot of slots.filter(readsFile)) {
    const file = input[slot.key];
    if (typeof file === 'string' && !SHEET_NAME.test(file)) {
      return { message: `${file} is not a CSV or xlsx file name: the tool reads only .csv, .tsv, .txt or .xlsx files.`, hint: 'name the spreadsheet to read' };
    }
  }
  const { out } = input;
  if (typeof out !== 'string') return undefined;
  if (!OUT_NAME.test(out)) return { message: `${out}: the tool writes only .json, .csv or .xlsx files.`, hint: 'name a new .json file (or .csv/.xlsx for invite_csv results)' };
  const continuing = input.resume === true || input.retryFailed === true;
  if (!continuing && existsSync(out)) return { message: `${out} exists: the tool never writes over a file.`, hint: 'name a new file' };
  return undefined;
}

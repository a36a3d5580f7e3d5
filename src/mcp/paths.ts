/**
 * The files an assistant may name. A tool call can come from text a stranger
 * planted (a candidate's name read back into the context), so:
 * - `out` is a new file with a data file's name (.json, .csv, .xlsx): never
 *   over a file that is there, never a name a shell or a program would run;
 * - `file` (invite_csv) is a spreadsheet's name (.csv, .tsv, .txt, .xlsx),
 *   never standard input (the MCP stream itself) nor any other file, whose
 *   lines a dry run would quote back.
 * A run that goes on (--resume, --retry-failed) reuses its own results file.
 */
import { existsSync } from 'node:fs';

const OUT_NAME = /\.(json|csv|xlsx)$/i;
const SHEET_NAME = /\.(csv|tsv|txt|xlsx)$/i;

export interface PathProblem {
  message: string;
  hint: string;
}

export function pathProblem(input: Record<string, unknown>): PathProblem | undefined {
  const { out, file } = input;
  if (typeof file === 'string' && !SHEET_NAME.test(file)) {
    return { message: `${file} is not a CSV or xlsx file name: the tool reads only .csv, .tsv, .txt or .xlsx files.`, hint: 'name the spreadsheet to invite from' };
  }
  if (typeof out !== 'string') return undefined;
  if (!OUT_NAME.test(out)) return { message: `${out}: the tool writes only .json, .csv or .xlsx files.`, hint: 'name a new .json file (or .csv/.xlsx for invite_csv results)' };
  const continuing = input.resume === true || input.retryFailed === true;
  if (!continuing && existsSync(out)) return { message: `${out} exists: the tool never writes over a file.`, hint: 'name a new file' };
  return undefined;
}

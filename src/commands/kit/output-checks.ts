/**
 * Every option is checked before any network call. What a command prints
 * with (`--fields`, `-o`) and where it writes (`--out FILE`) are checked here,
 * before the command creates its client or looks a name up, with the very
 * sentences the printing (format/output.ts) and the writing (core/files.ts)
 * would say later: a bad option costs no request and starts no stub.
 */
import { accessSync, constants } from 'node:fs';
import { dirname } from 'node:path';
import { UsageError } from '../../core/errors.js';
import { checkDestination, fileErrorCause } from '../../core/files.js';
import type { OutputFormat, Session } from '../../core/session.js';
import { checkFields, resolveFormat } from '../../format/output.js';

export interface OutputChecks {
  /** What --fields may name (the command's fixed list); absent: names are checked on the data. */
  fields?: Parameters<typeof checkFields>[1];
  /** `--out FILE`, when given: the output goes there, not to the terminal. */
  out?: string;
  /** The formats the command prints (default: those of printList and printObject). */
  formats?: readonly OutputFormat[];
}

/** --fields, then --out, then -o: the order in which the run would meet them. */
export function checkOutputOptions(ctx: Session, o: OutputChecks): void {
  if (o.fields) checkFields(ctx, o.fields);
  if (o.out !== undefined) checkOutFile(o.out);
  // With --out the output is a file, not the terminal (export/target.ts).
  const io = o.out === undefined ? ctx.io : (Object.create(ctx.io, { stdoutIsTTY: { value: false } }) as Session['io']);
  resolveFormat({ io, globals: ctx.globals }, o.formats);
}

/** The refusals createPrivateOutput makes when the output is opened, made now: a file we may write, in a folder we may write. */
export function checkOutFile(path: string, what = '--out'): void {
  checkDestination(path, what);
  try {
    accessSync(dirname(path), constants.W_OK);
  } catch (err) {
    throw new UsageError(`Cannot write ${what} ${path}: ${fileErrorCause(err)} in its folder.`);
  }
}

/**
 * The mode line: one stderr line saying which mode, server and key a command
 * is about to use. It is shown to a person (stderr is a terminal) or with -v,
 * never with -q, and never on stdout, so scripts and pipes see nothing new.
 */
import type { Session } from '../../core/session.js';
import { forPerson } from '../../format/person-text.js';
import type { ConnectionInfo } from './context.js';

/**
 * `[test mode] profile default · http://127.0.0.1:4010/v2 · sk_test_…a1b2`, or for
 * the embedded stub `[local stub, live mode] account Northwind Talent (1) · in this process`:
 * nothing real is touched there, and the line says so (it has no address: it answers in this
 * process, stub/in-process.ts).
 */
export function modeLine(c: ConnectionInfo): string {
  const mode = c.mode ? `${c.mode} mode` : 'no key';
  if (c.embedded) return `[local stub, ${mode}] ${[c.account ? `account ${c.account}` : 'embedded stub', 'in this process'].join(' · ')}`;
  // The key's source first: JOBFIT_API_KEY wins over a profile's key (as whoami says), even when the profile gives the base URL.
  const where = c.source === 'env' ? `JOBFIT_API_KEY${c.profileName ? ` (profile ${c.profileName} for the rest)` : ''}` : c.profileName ? `profile ${c.profileName}` : c.source;
  const parts = [where, c.baseUrl];
  if (c.maskedKey !== '(none)') parts.push(c.maskedKey);
  return `[${mode}] ${parts.join(' · ')}`;
}

/** Writes the mode line for `c` to stderr when a person (or -v) should see it. */
export function announceMode(session: Session, c: ConnectionInfo): void {
  if (session.globals.quiet) return;
  if (!session.io.stderrIsTTY && !session.globals.verbose) return;
  const line = forPerson(modeLine(c));
  // Live mode stands out on a terminal: it touches real records.
  const shown = session.io.colorStderr ? (c.mode === 'live' && !c.embedded ? `\x1b[33m${line}\x1b[39m` : `\x1b[2m${line}\x1b[22m`) : line;
  session.io.stderr.write(`${shown}\n`);
}

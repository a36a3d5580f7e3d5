/**
 * The client for a command, plus the mode line: one stderr line saying which
 * mode, server and key the command is about to use. It is shown to a person
 * (stderr is a terminal) or with -v, never with -q, and never on stdout, so
 * scripts and pipes see nothing new.
 */
import type { JobfitClient } from '../../client/client.js';
import type { ConnectionInfo, Context } from '../kit/context.js';
import { forPerson } from '../../format/person-text.js';

const announced = new WeakSet<Context>();

/**
 * `[test mode] profile default · http://127.0.0.1:4010/v2 · sk_test_…a1b2`, or for
 * the embedded stub `[local stub, live mode] account Northwind Talent (1) · …`:
 * nothing real is touched there, and the line says so.
 */
export function modeLine(c: ConnectionInfo): string {
  const mode = c.mode ? `${c.mode} mode` : 'no key';
  if (c.embedded) return `[local stub, ${mode}] ${[c.account ? `account ${c.account}` : 'embedded stub', c.baseUrl].join(' · ')}`;
  const where = c.profileName ? `profile ${c.profileName}` : c.source === 'env' ? 'JOBFIT_API_KEY' : c.source;
  const parts = [where, c.baseUrl];
  if (c.maskedKey !== '(none)') parts.push(c.maskedKey);
  return `[${mode}] ${parts.join(' · ')}`;
}

export function announceMode(ctx: Context): void {
  const c = ctx.connection;
  if (!c || announced.has(ctx)) return;
  announced.add(ctx);
  if (ctx.globals.quiet) return;
  if (!ctx.io.stderrIsTTY && !ctx.globals.verbose) return;
  const line = forPerson(modeLine(c));
  // Live mode stands out on a terminal: it touches real records.
  const shown = ctx.io.colorStderr ? (c.mode === 'live' && !c.embedded ? `\x1b[33m${line}\x1b[39m` : `\x1b[2m${line}\x1b[22m`) : line;
  ctx.io.stderr.write(`${shown}\n`);
}

/** The API client of this command, after saying (to a person) where it points. */
export async function clientFor(ctx: Context): Promise<JobfitClient> {
  const client = await ctx.client();
  announceMode(ctx);
  return client;
}

/**
 * A client for a given server and key, outside the resolved connection
 * (`login` checks keys before they are saved). The caller closes it.
 */
export async function clientForKey(ctx: Context, baseUrl: string, apiKey: string): Promise<JobfitClient> {
  const { createClient } = await import('../../client/index.js');
  return createClient({
    baseUrl,
    apiKey,
    env: ctx.io.env,
    signal: ctx.io.signal,
    trace: ctx.globals.verbose ? (line) => ctx.io.stderr.write(`${forPerson(line)}\n`) : undefined,
  });
}

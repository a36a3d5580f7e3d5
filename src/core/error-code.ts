/**
 * The stable code of an error, for scripts and agents: with `-o json` or
 * `-o ndjson` a failing command writes `{"error":{code,message,hint,status}}`
 * on stderr (cli/main.ts), and an MCP tool answers the same object
 * (src/mcp/). Classes are told apart by name, so this file loads nothing of
 * the HTTP layer (main.ts imports it on every run).
 */
import { ExitCode, type JobfitError } from './errors.js';

export const ERROR_CODES = {
  not_found: 'the id or resource does not exist in this account',
  usage: 'bad flags, arguments or input (exit 2)',
  auth: 'no key, or a key the service does not accept (exit 4)',
  mode_mismatch: 'live and test disagree: the key, --live/--test or the answer (exit 4)',
  rate_limited: 'the service kept answering 429 after the retries',
  service_unavailable: 'the service failed (5xx) or could not be reached',
  partial: 'some rows or items failed or were invalid; the rest were done (exit 3)',
  declined: 'a confirmation was declined or could not be asked; nothing was sent',
  interrupted: 'stopped by Ctrl-C or a signal; work done is kept (exit 130, 143, 129)',
  failed: 'any other failure (exit 1)',
} as const;
export type ErrorCodeName = keyof typeof ERROR_CODES;

export interface ErrorJson {
  error: { code: ErrorCodeName; message: string; hint: string | null; status: number | null };
}

const UNAVAILABLE = new Set(['ServerError', 'NetworkError', 'UnknownOutcomeError', 'ServiceGoneError']);

function byExit(exit: number | undefined): ErrorCodeName {
  if (exit === ExitCode.USAGE) return 'usage';
  if (exit === ExitCode.AUTH) return 'auth';
  if (exit === ExitCode.PARTIAL) return 'partial';
  if (exit === ExitCode.INTERRUPTED || exit === ExitCode.TERMINATED || exit === ExitCode.HANGUP) return 'interrupted';
  return 'failed';
}

export function errorCodeOf(err: unknown): ErrorCodeName {
  const e = (err ?? {}) as Partial<JobfitError> & { status?: unknown; apiText?: unknown };
  const name = typeof e.name === 'string' ? e.name : '';
  if (name === 'ModeMismatchError') return 'mode_mismatch';
  if (name === 'RateLimitError' || e.status === 429) return 'rate_limited';
  if (UNAVAILABLE.has(name)) return 'service_unavailable';
  if (name === 'NotFoundError') return 'not_found';
  // The service answers 400 for an id that is not in the account ("... not found").
  if (name === 'BadRequestError' && /not found/i.test(String(e.apiText ?? e.message))) return 'not_found';
  if (name === 'CancelError' && e.exitCode === ExitCode.FAILURE) return 'declined';
  return byExit(e.exitCode);
}

/** The object a failing command writes on stderr with -o json/ndjson (one line). */
export function errorJson(err: unknown, message: string, hint: string | undefined): ErrorJson {
  const status = (err as { status?: unknown } | null)?.status;
  return { error: { code: errorCodeOf(err), message, hint: hint ?? null, status: typeof status === 'number' ? status : null } };
}

export const ERROR_JSON_HELP = `With -o json or -o ndjson, a failing command writes one line on stderr instead:
  {"error":{"code":"not_found","message":"…","hint":"…","status":400}}
(hint and status may be null). The codes are stable:
${Object.entries(ERROR_CODES)
  .map(([k, v]) => `  ${k.padEnd(20)} ${v}`)
  .join('\n')}`;

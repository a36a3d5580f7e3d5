/**
 * The redirect policy as a pure decision, beside the retry decision
 * (retry.ts): from the facts of one request and its answer to "follow" or
 * "refuse, and why". Redirects are followed only for reads, only within the
 * exact origin of the base URL (scheme, host and port: another port of the
 * same host is another server, and http is not https), a few times; the key
 * is never sent anywhere else. Unit-tested without a server.
 */
import { hideUrlPasswords } from '../config/mask.js';
import { RedirectError } from './errors.js';

export const MAX_REDIRECTS = 5;

export interface RedirectFacts {
  method: string;
  /** The answer's status (any: only 3xx but 304 with a Location is a redirect). */
  status: number | undefined;
  /** The Location header, as sent. */
  location: string | undefined;
  /** Where the request went (a relative Location resolves against it). */
  url: URL;
  /** The base URL's origin: the only one redirects are followed within. */
  baseOrigin: string;
  /** Redirects already followed for this request. */
  redirects: number;
}

export type RefusalReason = 'not-a-url' | 'another-origin' | 'write' | 'too-many';

export type RedirectDecision =
  | { follow: true; status: number; target: URL }
  | { follow: false; status: number; reason: RefusalReason; target?: URL };

/** undefined when the answer is not a redirect (no Location, 304, not 3xx). */
export function decideRedirect(f: RedirectFacts): RedirectDecision | undefined {
  const { status, location } = f;
  if (status === undefined || status < 300 || status >= 400 || status === 304 || !location) return undefined;
  let target: URL | undefined;
  try {
    target = new URL(location, f.url);
  } catch {
    return { follow: false, status, reason: 'not-a-url' };
  }
  if (target.origin !== f.baseOrigin) return { follow: false, status, reason: 'another-origin', target };
  if (f.method !== 'GET' && f.method !== 'HEAD') return { follow: false, status, reason: 'write', target };
  if (f.redirects >= MAX_REDIRECTS) return { follow: false, status, reason: 'too-many', target };
  return { follow: true, status, target };
}

/** The trace line for a decision; it names the host and port, so a move to another port shows. */
export function redirectTrace(d: RedirectDecision): string {
  const t = d.target;
  if (d.follow) return `  following ${d.status} to ${d.target.host} ${d.target.pathname}${d.target.search}`;
  return `  ${d.status} to ${t ? t.host : 'an unreadable location'}${t && d.reason === 'another-origin' ? ' (another origin)' : ''}: not followed`;
}

/** The one sentence for a refused redirect; `redact` masks the key wherever the location echoes it. */
export function redirectError(d: Extract<RedirectDecision, { follow: false }>, f: RedirectFacts, relPath: string, redact: (text: string) => string): RedirectError {
  const { status, target } = d;
  const { method } = f;
  const where = target ? (d.reason === 'another-origin' ? target.href : `${target.pathname}${target.search}`) : f.location!;
  const location = redact(hideUrlPasswords(where.length > 160 ? `${where.slice(0, 159)}…` : where));
  switch (d.reason) {
    case 'not-a-url':
    case 'another-origin': {
      const other = target ? `another origin (${target.protocol === f.url.protocol ? target.host : `${target.protocol}//${target.host}`})` : 'an address that is not a URL';
      return new RedirectError(`The service redirected ${method} ${relPath} to ${location}, ${other}; not followed, so the key is not sent there.`, {
        status,
        location,
        hint: 'if that is the service, use it as the base URL (--base-url or JOBFIT_BASE_URL)',
      });
    }
    case 'write':
      return new RedirectError(`The service redirected ${method} ${relPath} to ${location} (${status}); a ${method} is not sent again to another address.`, {
        status,
        location,
        hint: 'check the base URL: the service may have moved',
      });
    case 'too-many':
      return new RedirectError(`The service redirected ${method} ${relPath} more than ${MAX_REDIRECTS} times; stopped following.`, {
        status,
        location,
        hint: 'check the base URL',
      });
  }
}

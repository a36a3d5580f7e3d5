/**
 * Keys are secrets: every place that shows one goes through maskKey, and every
 * text that might echo one (traces, error bodies) goes through redactKey.
 */

const PREFIX = /^(sk_(?:live|test)_)/;

/** `sk_live_…a1b2`: the prefix (which tells the mode) and the last 4 characters. */
export function maskKey(key: string | undefined | null): string {
  if (!key) return '(none)';
  const m = PREFIX.exec(key);
  const prefix = m ? m[1] : '';
  const rest = key.slice(prefix.length);
  // Showing 4 characters of a short secret would give away too much of it.
  const tail = rest.length >= 12 ? rest.slice(-4) : '';
  return `${prefix}…${tail}`;
}

/** Replaces every occurrence of the key in text with its masked form. */
export function redactKey(text: string, key: string | undefined | null): string {
  if (!key || key.length < 4) return text;
  return text.split(key).join(maskKey(key));
}

/** The mode a key belongs to, from its prefix. */
export function modeOfKey(key: string): 'live' | 'test' | undefined {
  if (key.startsWith('sk_live')) return 'live';
  if (key.startsWith('sk_test')) return 'test';
  return undefined;
}

// `scheme://user:password@`: the password part, up to the last `@` of the
// authority (a password may hold an `@` of its own).
const URL_PASSWORD = /\b([a-z][a-z0-9+.-]*:\/\/[^\s/?#@:]*):[^\s/?#]*@/gi;
// `?password=…`, `&sslpassword=…`, any parameter whose name holds "password"
// (libpq reads them from a URL's query), and the same in a key=value
// connection string (`password=pw`, `password='p w'`).
const NAMED_PASSWORD = /(^|[?&;\s])([^=&#\s?;]*password[^=&#\s?;]*\s*=\s*)('(?:[^'\\]|\\.)*'|[^&#\s;]*)/gi;

/**
 * Text with every password in it replaced by `***`: the password of each
 * `scheme://user:password@host` URL, and the value of each parameter named
 * `*password*` (a PostgreSQL URL's `?password=` or `&sslpassword=`). A base
 * URL, a proxy URL or a `--db` may carry one, and each is printed in banners,
 * errors, traces and `config list`.
 */
export function hideUrlPasswords(text: string): string {
  let out = text.includes('@') ? text.replace(URL_PASSWORD, '$1:***@') : text;
  if (/password/i.test(out)) out = out.replace(NAMED_PASSWORD, '$1$2***');
  return out;
}

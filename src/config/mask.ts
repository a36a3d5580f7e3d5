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

// `scheme://user:password@`: the password part, up to the `@` of the authority.
const URL_PASSWORD = /\b([a-z][a-z0-9+.-]*:\/\/[^\s/?#@:]*):[^\s/?#@]*@/gi;

/**
 * Text with the password of every `scheme://user:password@host` URL in it
 * replaced by `***`: a base URL or a proxy URL may carry one, and it is printed
 * in banners, errors and traces.
 */
export function hideUrlPasswords(text: string): string {
  return text.includes('@') ? text.replace(URL_PASSWORD, '$1:***@') : text;
}

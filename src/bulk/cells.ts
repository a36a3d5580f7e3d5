/** Reading one cell of an invite row: emails, phones, yes/no, channels, a country. */
import { possibleE164, toE164 } from '../api/index.js';
import { getCountryCallingCode, isSupportedCountry, parsePhoneNumberFromString, type CountryCode } from 'libphonenumber-js/max';
import type { RowError } from './row-check.js';

/** "anonymous" as Microsoft Forms (and others) write it in an anonymous form's Name and Email columns. */
export const ANONYMOUS = /^(anonymous|anonym|anonyme|an[oó]nim[oa]|anoniem)$/i;
const LOOKS_LIKE_EMAIL = /^[^\s@<>,;"\p{C}]+@[^\s@<>,;"\p{C}]+\.[^\s@<>,;"\p{C}]+$/u;

/** The values of a cell that may hold several: a JSON list, or separated by `separators`. */
function manyValues(cell: string, separators: RegExp): string[] {
  const s = cell.trim();
  if (s.startsWith('[') && s.endsWith(']')) {
    try {
      const list: unknown = JSON.parse(s);
      if (Array.isArray(list)) {
        return list
          .map((x) => (typeof x === 'string' ? x : typeof x === 'object' && x ? String((x as Record<string, unknown>).value ?? (x as Record<string, unknown>).email ?? (x as Record<string, unknown>).number ?? '') : String(x)))
          .map((x) => x.trim())
          .filter(Boolean);
      }
    } catch {
      // Not JSON: split below.
    }
  }
  return s.split(separators).map((x) => x.trim()).filter(Boolean);
}

/** "Ann <ann@x.com>" → the address. */
const bareAddress = (s: string) => s.replace(/^.*<([^>]*)>.*$/, '$1').trim();

/**
 * The addresses of an email cell (comma, semicolon, whitespace or a JSON
 * list): the first valid one, and how many there were. A cell with no valid
 * address is given whole, so its error shows it as written.
 */
export function emailsOf(cell: string): { pick: string; count: number } {
  const words = manyValues(cell, /[,;\s]+/).map(bareAddress).filter(Boolean);
  const valid = words.filter((w) => LOOKS_LIKE_EMAIL.test(w));
  if (valid.length === 0) return { pick: cell.trim(), count: words.length ? 1 : 0 };
  // "Ann Smith <ann@x.com>" is one address: the words without an @ are names.
  return { pick: valid[0], count: Math.max(1, words.filter((w) => w.includes('@')).length) };
}

/** "+1 415 555 0100 (Mobile)", "Mobile: 020 7946 0958" → the number. */
const barePhone = (s: string) => s.replace(/\([^)]*[A-Za-z][^)]*\)/g, '').replace(/^[A-Za-z][A-Za-z ]*:\s*/, '').trim();

/** The numbers of a phone cell (semicolon, comma, slash, bar, new line or a JSON list): the first readable one, and how many; none readable: the cell whole. */
export function phonesOf(cell: string, country: CountryCode | undefined): { pick: string; count: number } {
  const all = manyValues(cell, /[;,|/\n]+|\s+or\s+/i).map(barePhone).filter(Boolean);
  if (all.length <= 1) return { pick: all[0] ?? cell.trim(), count: all.length };
  const readable = all.find((p) => toE164(p, country));
  return readable ? { pick: readable, count: all.length } : { pick: cell.trim(), count: 1 };
}

const TRUE = new Set(['true', 'yes', 'y', '1', 'x', 'on', 't', 'ja', 'oui', 'si', 'sí', '✓', '✔']);
const FALSE = new Set(['false', 'no', 'n', '0', 'off', 'f', 'nein', 'non', '-']);

export function parseBool(raw: string): boolean | undefined | 'invalid' {
  const s = raw.trim().toLowerCase();
  if (s === '') return undefined;
  if (TRUE.has(s)) return true;
  if (FALSE.has(s)) return false;
  return 'invalid';
}

/** "email", "sms", "email,sms", "both", "none" → the two flags; undefined when not understood. */
export function parseSendVia(raw: string): { email: boolean; sms: boolean } | undefined {
  const s = raw.trim().toLowerCase();
  if (s === 'both' || s === 'all') return { email: true, sms: true };
  if (s === 'none' || s === 'no' || s === 'link' || s === 'manual') return { email: false, sms: false };
  const parts = s.split(/[,;|/+&\s]+|\band\b/).filter(Boolean);
  if (parts.length === 0) return undefined;
  const r = { email: false, sms: false };
  for (const p of parts) {
    if (p === 'email' || p === 'e-mail' || p === 'mail') r.email = true;
    else if (p === 'sms' || p === 'text' || p === 'phone' || p === 'mobile') r.sms = true;
    else return undefined;
  }
  return r;
}

/** Country names people write in a Country column, beside ISO codes. */
const COUNTRY_NAMES: Record<string, string> = {
  uk: 'GB', 'united kingdom': 'GB', 'great britain': 'GB', britain: 'GB', england: 'GB', scotland: 'GB', wales: 'GB',
  usa: 'US', 'united states': 'US', 'united states of america': 'US', america: 'US',
  canada: 'CA', australia: 'AU', 'new zealand': 'NZ', ireland: 'IE', germany: 'DE', deutschland: 'DE', france: 'FR',
  spain: 'ES', 'españa': 'ES', italy: 'IT', italia: 'IT', netherlands: 'NL', 'the netherlands': 'NL', nederland: 'NL',
  belgium: 'BE', switzerland: 'CH', schweiz: 'CH', austria: 'AT', 'österreich': 'AT', sweden: 'SE', sverige: 'SE',
  norway: 'NO', denmark: 'DK', finland: 'FI', poland: 'PL', portugal: 'PT', india: 'IN', mexico: 'MX', 'méxico': 'MX',
  brazil: 'BR', brasil: 'BR', japan: 'JP', singapore: 'SG', 'south africa': 'ZA', 'hong kong': 'HK', china: 'CN',
};

/** "GB", "uk", "United Kingdom" → an ISO country libphonenumber knows; undefined otherwise. */
export function phoneCountry(raw: string): CountryCode | undefined {
  const s = raw.trim();
  const named = COUNTRY_NAMES[s.toLowerCase()];
  if (named) return named as CountryCode;
  const up = s.toUpperCase();
  return /^[A-Z]{2}$/.test(up) && isSupportedCountry(up) ? (up as CountryCode) : undefined;
}

/**
 * A row's phone: the first readable number of its cell, made E.164 when it is
 * written without a +country code and the row (or --phone-country) names a
 * country; without one the service would read it as a US number. `raw` is the
 * number as written (the schema's error explains it), `value` what is sent.
 */
export function readPhone(cell: string, country: string): { raw: string; value: string; count: number; errors: RowError[]; unlisted?: boolean } {
  const phones = phonesOf(cell, (country && phoneCountry(country)) || undefined);
  const raw = phones.pick;
  const out: ReturnType<typeof readPhone> = { raw, value: raw, count: phones.count, errors: [] };
  if (!raw) return out;
  const cc = country ? phoneCountry(country) : undefined;
  if (/^(\+|00)/.test(raw) || !country) {
    // Written with its country code (or read as a US number by the service): only a range check here.
    out.unlisted = !toE164(raw, cc) && possibleE164(raw, cc) !== null;
    return out;
  }
  if (!cc) out.errors.push({ field: 'phone_country', reason: `"${country}" is not a country the phone number can be read for (use a code such as GB, DE or US)` });
  else {
    const e164 = strippedPlus(raw, cc) ?? toE164(raw, cc);
    const possible = e164 ? undefined : possibleE164(raw, cc);
    if (e164) out.value = e164;
    else if (possible) {
      out.value = possible;
      out.unlisted = true;
    } else out.errors.push({ field: 'phone', reason: `Invalid phone number for ${cc}` });
  }
  return out;
}

/**
 * A number whose `+` a spreadsheet stripped (`4915123456789` with Country DE):
 * digits only, no trunk 0, starting with the country's calling code, and a
 * valid number of that country once the `+` is put back. Read as written it
 * would be the national number 4915… (+49 4915…), which is not what was meant.
 */
function strippedPlus(raw: string, cc: CountryCode): string | null {
  const digits = raw.replace(/[\s().-]/g, '');
  if (!/^[1-9]\d{7,14}$/.test(digits) || !digits.startsWith(getCountryCallingCode(cc))) return null;
  const e164 = toE164(`+${digits}`, cc);
  return e164 && parsePhoneNumberFromString(e164)?.country === cc ? e164 : null;
}

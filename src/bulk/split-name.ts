/**
 * One cell holding a whole name → first and last name, as the service's two
 * fields want them. Pure: no I/O, no state.
 *
 * - "Last, First" (a comma not followed by a suffix) is split at the comma.
 * - Honorifics in front (Dr., Mr., Ms., Prof., Herr, Mme, Sra., ...) and
 *   degrees behind (PhD, MD, MBA, ...) are dropped: the service has no field
 *   for them and an invitation says "Dear John Smith", not "Dear Dr. John".
 * - Generational suffixes (Jr., Sr., II, III, IV) are part of the legal last
 *   name and stay on it: "John Smith Jr." → "John" / "Smith Jr.".
 * - Particles (van, van der, de, de la, von, bin, da, di, al-, ...) go with
 *   the last name: "Mary Anne van der Berg" → "Mary Anne" / "van der Berg".
 * - Otherwise the last word is the last name.
 * - `order: 'last-first'` (--name-order last-first) reads "Nguyen Van An"
 *   as last name first: the first word (with its particles) is the last name.
 */

export type NameOrder = 'first-last' | 'last-first';

export interface SplitName {
  first: string;
  last: string;
}

const HONORIFICS = new Set([
  'dr', 'mr', 'mrs', 'ms', 'miss', 'mx', 'prof', 'professor', 'sir', 'dame', 'rev', 'fr',
  'herr', 'frau', 'mme', 'mlle', 'sr', 'sra', 'srta', 'dhr', 'mevr', 'mw',
]);
const GENERATIONAL = new Set(['jr', 'sr', 'ii', 'iii', 'iv']);
// Not "MA" or "BA": Ma and Ba are surnames too.
const DEGREES = new Set(['phd', 'md', 'mba', 'msc', 'bsc', 'esq', 'cpa', 'dds', 'llm', 'mphil', 'dphil']);
/** Words that start a last name when they follow the first name. */
const PARTICLES = new Set([
  'van', 'von', 'der', 'den', 'de', 'del', 'della', 'dello', 'la', 'le', 'du', 'des', 'da', 'das', 'dos', 'di', 'do',
  'bin', 'binti', 'ibn', 'bint', 'al', 'el', 'ter', 'ten', 'het', "'t", 'zu', 'af', 'av',
]);

const bare = (w: string) => w.toLowerCase().replace(/[.,]/g, '');
const isHonorific = (w: string) => HONORIFICS.has(bare(w));
const isSuffix = (w: string) => GENERATIONAL.has(bare(w)) || DEGREES.has(bare(w));
/** "al-Farsi", "el-Amin", "d'Artagnan", "O'Brien" is not one (O is not a particle). */
const isParticle = (w: string) => PARTICLES.has(w.toLowerCase()) || /^(al|el|ad|ud|bin)-./i.test(w) || /^d['’]./i.test(w);

/** Drops degrees at the end; returns the generational suffix kept ("Jr."), if any. */
function takeSuffixes(words: string[]): string {
  const kept: string[] = [];
  while (words.length > 1 && isSuffix(words[words.length - 1])) {
    const w = words.pop()!.replace(/,$/, '');
    if (GENERATIONAL.has(bare(w))) kept.unshift(w);
  }
  // A comma before a suffix ("Smith, Jr.") belongs to neither.
  if (words.length) words[words.length - 1] = words[words.length - 1].replace(/,$/, '');
  return kept.join(' ');
}

function dropHonorifics(words: string[]): void {
  while (words.length > 1 && isHonorific(words[0])) words.shift();
}

/** Where the last name starts in "first ... last": the first particle after the first word, else the last word. */
function lastStart(words: string[]): number {
  // "al-Farsi" is a particle and a name in one word, so it may be the last word.
  for (let i = 1; i < words.length - 1; i++) if (isParticle(words[i])) return i;
  return words.length - 1;
}

/** Where the first name starts in "last ... first": after the first word and the particles that follow it. */
function firstStart(words: string[]): number {
  // "van der Berg Mary": leading particles, then the name they belong to.
  let j = 0;
  while (j < words.length - 1 && isParticle(words[j])) j++;
  return Math.min(j + 1, words.length - 1);
}

const join = (ws: string[]) => ws.join(' ').trim();
const withSuffix = (last: string, suffix: string) => (suffix ? `${last} ${suffix}`.trim() : last);

/**
 * Splits a whole name. A name of one word gives it as the first name and an
 * empty last name (the row is then invalid: the service wants both).
 */
export function splitFullName(raw: string, order: NameOrder = 'first-last'): SplitName {
  const full = raw.replace(/\s+/g, ' ').trim();
  if (full === '') return { first: '', last: '' };

  // "Last, First" — unless what follows the comma is a suffix ("Smith, Jr.", "Jane Doe, PhD").
  const parts = full.split(',').map((p) => p.trim()).filter(Boolean);
  const nameParts = parts.filter((p, i) => i === 0 || !p.split(' ').every(isSuffix));
  const suffixParts = parts.filter((p, i) => i > 0 && p.split(' ').every(isSuffix));
  if (nameParts.length >= 2) {
    const lastWords = nameParts[0].split(' ');
    const firstWords = nameParts.slice(1).join(' ').split(' ');
    dropHonorifics(lastWords);
    dropHonorifics(firstWords);
    const suffix = [takeSuffixes(lastWords), takeSuffixes(firstWords), keptOf(suffixParts)].filter(Boolean).join(' ');
    return { first: join(firstWords), last: withSuffix(join(lastWords), suffix) };
  }

  const words = nameParts[0].split(' ');
  const suffixOfParts = keptOf(suffixParts);
  dropHonorifics(words);
  const suffix = [takeSuffixes(words), suffixOfParts].filter(Boolean).join(' ');
  if (words.length === 1) return { first: words[0], last: suffix };
  if (order === 'last-first') {
    const at = firstStart(words);
    return { first: join(words.slice(at)), last: withSuffix(join(words.slice(0, at)), suffix) };
  }
  const at = lastStart(words);
  return { first: join(words.slice(0, at)), last: withSuffix(join(words.slice(at)), suffix) };
}

/** The generational suffixes among comma-separated suffix parts ("PhD" dropped, "Jr." kept). */
function keptOf(parts: string[]): string {
  return parts
    .flatMap((p) => p.split(' '))
    .filter((w) => GENERATIONAL.has(bare(w)))
    .join(' ');
}

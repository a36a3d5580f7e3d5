/**
 * What a list item tells the listing engines on its own: its id (the key a
 * search keeps it under) and its created_at (what dates a count).
 */
import { readId } from '../api/ids.js';

/** The id of a list item, as a string (numeric strings and numbers alike, api/ids.ts). */
export function itemId(item: unknown, noun: string): string {
  return String(itemKey(item, noun));
}

/** The id of a list item as a number: the key the search keeps its items under (a number costs less than a string). */
export function itemKey(item: unknown, noun: string): number {
  return readId(item !== null && typeof item === 'object' ? (item as { id?: unknown }).id : item, `id of an item of the list of ${noun}`);
}

/** An item's created_at in ms, NaN when it has none. */
export function createdAt(item: unknown): number {
  const v = item !== null && typeof item === 'object' ? (item as { created_at?: unknown }).created_at : undefined;
  return typeof v === 'string' ? Date.parse(v) : Number.NaN;
}

/**
 * The newest created_at of an answer, which lists newest first: every item
 * of the filter that existed then is at most this old, and an item newer than
 * it was created afterwards. +Infinity (nothing can be told) when an item has
 * no created_at or the answer is not newest first.
 */
export function newestOf(data: unknown[]): number {
  let prev = Number.POSITIVE_INFINITY;
  let max = Number.NEGATIVE_INFINITY;
  for (const it of data) {
    const at = createdAt(it);
    if (!Number.isFinite(at) || at > prev) return Number.POSITIVE_INFINITY;
    prev = at;
    if (at > max) max = at;
  }
  return data.length === 0 ? Number.POSITIVE_INFINITY : max;
}

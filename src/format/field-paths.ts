/**
 * Dotted field names over API objects, shared by --fields, CSV and tables.
 *
 * A path walks objects by key (`team.display_name`). When it meets an array it
 * continues into every element, so `invitation_assessments.short_name` names the
 * short names of all assigned assessments: a field of every element, without an
 * index, so the same name fits every row whatever the array's length.
 */
import { UsageError } from '../core/errors.js';

export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

export function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * Every path a value offers, in first-seen order: objects give their keys and
 * their nested paths; arrays of objects give the union of their elements' paths.
 */
function pathsOf(value: unknown, into: Set<string> = new Set(), prefix = ''): Set<string> {
  if (Array.isArray(value)) {
    for (const el of value) if (isPlainObject(el) || Array.isArray(el)) pathsOf(el, into, prefix);
    return into;
  }
  if (!isPlainObject(value)) return into;
  for (const [k, v] of Object.entries(value)) {
    const p = prefix ? `${prefix}.${k}` : k;
    into.add(p);
    pathsOf(v, into, p);
  }
  return into;
}

/** The value at a dotted path; through arrays, the array of each element's value. */
export function getPath(value: unknown, path: string): unknown {
  return walk(value, path.split('.'));
}

function walk(value: unknown, segs: string[]): unknown {
  if (segs.length === 0) return value;
  if (Array.isArray(value)) return value.map((el) => walk(el, segs));
  if (!isPlainObject(value)) return value === undefined ? undefined : null;
  const [head, ...rest] = segs;
  return walk(value[head], rest);
}

/**
 * A copy of `value` holding only the given paths, nested as in the original,
 * with keys in the order the paths were given. Arrays are projected element by
 * element; a null parent stays null.
 */
export function project(value: unknown, paths: string[]): unknown {
  if (Array.isArray(value)) return value.map((el) => project(el, paths));
  if (!isPlainObject(value)) return value ?? null;
  const groups = new Map<string, string[] | 'all'>();
  for (const p of paths) {
    const dot = p.indexOf('.');
    const head = dot < 0 ? p : p.slice(0, dot);
    const rest = dot < 0 ? undefined : p.slice(dot + 1);
    const g = groups.get(head);
    if (rest === undefined || g === 'all') groups.set(head, 'all');
    else groups.set(head, [...(g ?? []), rest]);
  }
  const out: Record<string, unknown> = {};
  for (const [head, sub] of groups) {
    const v = value[head];
    out[head] = sub === 'all' ? (v === undefined ? null : v) : project(v, sub);
  }
  return out;
}

/**
 * Checks --fields names. With `fixed` (the command's list, from the schema of
 * its output: src/api/field-names.ts) against that list and `extra` only, whatever
 * the data; `a.*` in it admits every name under `a`. Without it, against what
 * the data offers: a name under a parent that is null in the sample (an
 * `invited_by_user` not yet set) is accepted, since the sample cannot tell.
 */
export function validateFields(fields: string[], sample: unknown[], extra: Iterable<string> = [], fixed?: readonly string[]): void {
  const valid = new Set<string>(extra);
  const nullParents = new Set<string>();
  const open = new Set<string>();
  if (fixed) {
    for (const f of fixed) {
      if (f.endsWith('.*')) open.add(f.slice(0, -2));
      valid.add(f);
    }
  } else {
    for (const item of sample) {
      for (const p of pathsOf(item)) {
        valid.add(p);
        if (getPath(item, p) === null) nullParents.add(p);
      }
    }
  }
  // With nothing to look at (an empty list and no declared fields) there is nothing to check against.
  if (valid.size === 0) return;
  const unknown = fields.filter((f) => {
    if (valid.has(f)) return false;
    for (const o of open) if (f.startsWith(`${o}.`)) return false;
    const segs = f.split('.');
    for (let i = 1; i < segs.length; i++) if (nullParents.has(segs.slice(0, i).join('.'))) return false;
    return true;
  });
  if (unknown.length === 0) return;
  const list = [...valid].sort();
  throw new UsageError(
    `Unknown field${unknown.length > 1 ? 's' : ''} for --fields: ${unknown.map((f) => `"${f}"`).join(', ')}.`,
    `Available fields: ${list.join(', ')}`,
  );
}

/** Separator for the values of an array in one CSV cell. */
const ARRAY_JOINER = ';';

export type Cell = string | number;

/**
 * One flat record for CSV: nested objects become dotted keys (`team.id`);
 * an array of primitives becomes one cell joined with `;`; an array of objects
 * becomes one column per nested key, each holding the elements' values joined
 * with `;` in element order (so position i of every such column is element i);
 * null and missing become empty cells; booleans `true`/`false`.
 */
export function flattenRecord(value: unknown): Record<string, Cell> {
  const out: Record<string, Cell> = {};
  flattenInto(value, '', out);
  return out;
}

function flattenInto(value: unknown, prefix: string, out: Record<string, Cell>): void {
  if (isPlainObject(value)) {
    const entries = Object.entries(value);
    if (entries.length === 0 && prefix) out[prefix] = '';
    for (const [k, v] of entries) flattenInto(v, prefix ? `${prefix}.${k}` : k, out);
    return;
  }
  if (Array.isArray(value)) {
    if (value.some((el) => isPlainObject(el) || Array.isArray(el))) {
      const flats = value.map((el) => (isPlainObject(el) ? flattenRecord(el) : { '': scalarCell(el) }));
      const keys = new Set<string>();
      for (const f of flats) for (const k of Object.keys(f)) keys.add(k);
      for (const k of keys) {
        const name = k === '' ? prefix : prefix ? `${prefix}.${k}` : k;
        out[name] = flats.map((f) => String(f[k] ?? '')).join(ARRAY_JOINER);
      }
      if (keys.size === 0 && prefix) out[prefix] = '';
      return;
    }
    out[prefix] = value.map((el) => String(scalarCell(el))).join(ARRAY_JOINER);
    return;
  }
  out[prefix] = scalarCell(value);
}

function scalarCell(v: unknown): Cell {
  if (v === null || v === undefined) return '';
  if (typeof v === 'number') return v;
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  if (typeof v === 'string') return v;
  return JSON.stringify(v);
}

/**
 * Fields whose value the route fixes (`object: "invitation_list_item"` on every
 * item, the envelope's `mode`): a column of them says nothing, so CSV headers
 * and key-value tables leave them out unless --fields names them.
 */
export const CONSTANT_FIELDS: ReadonlySet<string> = new Set(['object', 'mode']);

/**
 * Column names in first-seen order over many flat records. A bare name that is
 * also the parent of others (`invited_by_user`, null in one row, an object in
 * the next) is dropped in favour of its children; constant fields are left out
 * unless `keep` (the --fields asked for) names them.
 */
/** Keys of a later record outside a header fixed by the first (constant fields do not count). */
export function keysOutside(record: Record<string, unknown>, header: readonly string[]): string[] {
  return Object.keys(record).filter((k) => !header.includes(k) && !CONSTANT_FIELDS.has(k));
}

export function unionKeys(records: Iterable<Record<string, unknown>>, keep?: readonly string[]): string[] {
  const keys = new Set<string>();
  for (const r of records) for (const k of Object.keys(r)) keys.add(k);
  const all = [...keys];
  return all.filter((k) => !all.some((o) => o.startsWith(`${k}.`)) && (!CONSTANT_FIELDS.has(k) || keep?.includes(k)));
}

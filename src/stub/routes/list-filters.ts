/** The filters of GET /invitations and GET /test-takers (team_id, custom_id, email) and the list cap they set. */
import { MSG } from '../../api/messages.js';
import { CUSTOM_ID_MAX, charLength, listCap } from '../../api/limits.js';
import { fail } from '../http/reply.js';
import { type PeopleTable, matchQuery, searchTable } from '../search-index.js';
import type { Store } from '../store.js';
import { type Call, pathId, teamOfAccount } from './call.js';

export interface Filters {
  teamId?: number;
  custom_id?: string;
  email?: string;
  cap: number;
}

/** team_id, custom_id, email of GET /invitations and /test-takers, with the reference's rules. */
export function listFilters(c: Call): Filters {
  const custom = c.query.get('custom_id') ?? undefined;
  const email = c.query.get('email') ?? undefined;
  const team = c.query.get('team_id');
  // Counted as create and update count it (code points): every stored id can be searched.
  if (custom !== undefined && charLength(custom) > CUSTOM_ID_MAX) fail('custom_id: Custom ID must be at most 50 characters');
  if (email !== undefined && charLength(email) > 255) fail('email: Email must be at most 255 characters');
  const matching = { custom_id: custom || undefined, email: email || undefined };
  // team_id alone does not raise the cap.
  const f: Filters = { ...matching, cap: listCap(matching) };
  if (team !== null) {
    const id = pathId(team.trim());
    if (id === null || !teamOfAccount(c, id)) fail(MSG.teamNotFound);
    f.teamId = id;
  }
  return f;
}

function likeArg(s: string): string {
  return `%${s.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;
}

/** The filters as SQL on the people table `x`: team, then each pattern as the reference's LIKE. */
function whereOf(f: Filters): { sql: string; args: unknown[] } {
  const parts: string[] = [];
  const args: unknown[] = [];
  if (f.teamId !== undefined) {
    parts.push('x.team_id = ?');
    args.push(f.teamId);
  }
  if (f.custom_id) {
    parts.push("x.custom_id LIKE ? ESCAPE '\\'");
    args.push(likeArg(f.custom_id));
  }
  if (f.email) {
    parts.push("x.email LIKE ? ESCAPE '\\'");
    args.push(likeArg(f.email));
  }
  return { sql: parts.map((p) => ` AND ${p}`).join(''), args };
}

/**
 * Where the rows of a filtered list come from: the trigram index's rows
 * (search-index.ts; CROSS JOIN keeps the index first, so the people table is
 * read by id for its candidates only), or, when no pattern is three
 * characters long, the account's rows.
 */
function sourceOf(store: Store, table: PeopleTable, f: Filters): { from: string; args: unknown[] } {
  const match = matchQuery(store, table, [
    ['email', f.email],
    ['custom_id', f.custom_id],
  ]);
  if (match === null) return { from: `${table} x`, args: [] };
  const s = searchTable(table);
  return { from: `(SELECT rowid AS id FROM ${s} WHERE ${s} MATCH ?) m CROSS JOIN ${table} x ON x.id = m.id`, args: [match] };
}

/** The statements of one filtered list: its count and its newest `cap` rows, with the team's and the account's names. */
export function peopleQueries(store: Store, table: PeopleTable, f: Filters, accountId: number): { count: string; page: string; args: unknown[] } {
  const w = whereOf(f);
  const src = sourceOf(store, table, f);
  // A pattern too short for the index is answered by one pass over the table
  // (`+` keeps SQLite from going through the account's index and then to
  // each row by id: 6 times slower for the count at 30,000 rows, and the
  // page's walk newest first has no bound for a rare pattern).
  const scan = src.args.length === 0 && Boolean(f.email || f.custom_id);
  const where = `WHERE ${scan ? '+' : ''}x.account_id = ?${w.sql}`;
  return {
    count: `SELECT COUNT(*) AS n FROM ${src.from} ${where}`,
    page: `SELECT x.*, t.display_name AS team_name, a.display_name AS account_name FROM ${src.from}
     JOIN teams t ON t.id = x.team_id JOIN accounts a ON a.id = x.account_id
     ${where} ORDER BY x.created_at DESC, x.id DESC LIMIT ?`,
    args: [...src.args, accountId, ...w.args],
  };
}

/**
 * One page of a people list (invitations or test takers) of the key's account,
 * newest first, with the team's and the account's names, and the total that
 * match; read inside the caller's transaction.
 */
export function peoplePage<R>(c: Call, table: PeopleTable, f: Filters): { total: number; rows: R[] } {
  const q = peopleQueries(c.store, table, f, c.auth.accountId);
  const total = c.store.get<{ n: number }>(q.count, ...q.args)!.n;
  const rows = c.store.all<R>(q.page, ...q.args, f.cap);
  return { total, rows };
}

/** The filters of GET /invitations and GET /test-takers (team_id, custom_id, email) and the list cap they set. */
import { MSG } from '../../api/messages.js';
import { CUSTOM_ID_MAX, charLength, listCap } from '../../api/limits.js';
import { fail } from '../http/reply.js';
import { type Call, intId, teamOfAccount } from './call.js';

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
    const id = intId(team.trim());
    if (id === null || !teamOfAccount(c, id)) fail(MSG.teamNotFound);
    f.teamId = id;
  }
  return f;
}

function likeArg(s: string): string {
  return `%${s.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;
}

function whereOf(alias: string, f: Filters): { sql: string; args: unknown[] } {
  const parts: string[] = [];
  const args: unknown[] = [];
  if (f.teamId !== undefined) {
    parts.push(`${alias}.team_id = ?`);
    args.push(f.teamId);
  }
  if (f.custom_id) {
    parts.push(`${alias}.custom_id LIKE ? ESCAPE '\\'`);
    args.push(likeArg(f.custom_id));
  }
  if (f.email) {
    parts.push(`${alias}.email LIKE ? ESCAPE '\\'`);
    args.push(likeArg(f.email));
  }
  return { sql: parts.map((p) => ` AND ${p}`).join(''), args };
}

/**
 * One page of a people list (invitations or test takers) of the key's account,
 * newest first, with the team's and the account's names, and the total that
 * match; read inside the caller's transaction.
 */
export function peoplePage<R>(c: Call, table: 'invitations' | 'test_takers', f: Filters): { total: number; rows: R[] } {
  const w = whereOf('x', f);
  const total = c.store.get<{ n: number }>(`SELECT COUNT(*) AS n FROM ${table} x WHERE x.account_id = ?${w.sql}`, c.auth.accountId, ...w.args)!.n;
  const rows = c.store.all<R>(
    `SELECT x.*, t.display_name AS team_name, a.display_name AS account_name FROM ${table} x
     JOIN teams t ON t.id = x.team_id JOIN accounts a ON a.id = x.account_id
     WHERE x.account_id = ?${w.sql} ORDER BY x.created_at DESC, x.id DESC LIMIT ?`,
    c.auth.accountId,
    ...w.args,
    f.cap,
  );
  return { total, rows };
}

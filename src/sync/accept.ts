/**
 * A sync's first steps: whose data this is (the key's mode and account
 * against what the database holds), which score profiles it keeps, and the
 * small lists read whole (teams, users). A refused run writes nothing.
 */
import { UsageError } from '../core/errors.js';
import type { RunState } from './run-state.js';
import { type Row, checkOwner } from './store.js';
import { obj, str, teamRow, userRow } from './rows.js';

/** Small lists the run reads whole, as the ids they hold (for the gone marks); undefined: the list did not add up, nothing is marked gone by it. */
export interface SmallLists {
  teams?: Set<number>;
  users?: Set<number>;
}

/** Checks the key's mode and account against the database, and the score profiles; records the run. Resolves with the profiles. */
export async function acceptRun(s: RunState): Promise<string[]> {
  const { ctx, client, db, o } = s;
  const account = obj(await s.req('account', () => client.getAccount()));
  const mode = account.mode === 'test' || account.mode === 'live' ? account.mode : ctx.connection?.mode;
  if (mode !== 'live' && mode !== 'test') throw new UsageError('The service did not say whether this key is live or test; refusing to sync into a database without knowing.');
  await checkOwner(db, mode, String(account.id ?? ''));
  s.mode = mode;

  const meta = await db.meta();
  const remembered = JSON.parse(meta.score_profiles ?? '[]') as string[];
  const sps = o.sp ?? remembered;
  // A first sync without --sp keeps no scorecard: say so (the results it keeps are listed in docs/sync.md).
  if (sps.length === 0 && !o.items && meta.score_profiles === undefined) {
    ctx.warn('No --sp given: no scorecards will be kept (job-fit reports, test takers and invitations are). Run again with --sp <short_names> to keep scorecards; `jobfit profiles list` names them.');
  }
  if (sps.length > 0 && !o.items) {
    const list = obj(await s.req('score_profiles', () => client.listScoreProfiles()));
    s.checkList(list, 'score profiles');
    const names = (Array.isArray(list.data) ? list.data : []).map((p) => str(obj(p).short_name)).filter((n): n is string => n !== null);
    const unknown = sps.filter((sp) => !names.includes(sp));
    // Test keys may answer with fake profiles: the service decides.
    if (unknown.length > 0 && mode === 'live') {
      throw new UsageError(`Unknown score profile${unknown.length > 1 ? 's' : ''} for --sp: ${unknown.join(', ')}.`, `profiles of this account: ${names.join(', ')}`);
    }
  }
  await db.setMeta('score_profiles', JSON.stringify(sps));
  s.runId = await db.startRun(s.started.toISOString(), o.full);
  return sps;
}

/** Teams and users, read whole and written; resolves with the ids of each list that adds up. */
export async function smallLists(s: RunState): Promise<SmallLists> {
  const teams = obj(await s.req('teams', () => s.client.listTeams()));
  const users = obj(await s.req('users', () => s.client.listUsers()));
  const whole = { teams: s.checkList(teams, 'teams'), users: s.checkList(users, 'users') };
  const teamRows: Row[] = [];
  const userRows: Row[] = [];
  for (const t of Array.isArray(teams.data) ? teams.data.map(obj) : []) {
    const row = s.rowOr(() => teamRow(t), 'team', t.id);
    if (row) teamRows.push(row);
  }
  for (const u of Array.isArray(users.data) ? users.data.map(obj) : []) {
    const row = s.rowOr(() => userRow(u), 'user', u.id);
    if (row) userRows.push(row);
  }
  await s.db.transaction(async (w) => {
    for (const row of teamRows) await w.upsert('teams', ['id'], row, s.counts);
    for (const row of userRows) await w.upsert('users', ['id'], row, s.counts);
  });
  // The rows listed are written either way; only a list that adds up says what is gone.
  return {
    teams: whole.teams ? new Set(teamRows.map((r) => Number(r.id))) : undefined,
    users: whole.users ? new Set(userRows.map((r) => Number(r.id))) : undefined,
  };
}

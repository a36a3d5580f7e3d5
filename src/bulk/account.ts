/**
 * What validation needs to know about the account, fetched once before the
 * first row: users (the inviter and their defaults), teams (ids and names),
 * invitation email templates, the assessment catalog.
 */
import type { Assessment, EmailTemplate, InvitationListItem, TeamListItem, User } from '../api/index.js';
import { assessmentIdOf, TEST_ID } from '../api/index.js';

/** The part of the typed client bulk invite uses (src/client). */
export interface BulkApi {
  listInvitations(query: { email?: string; team_id?: string; custom_id?: string }, signal?: AbortSignal): Promise<{ data: InvitationListItem[] }>;
  listUsers(): Promise<{ data: User[] }>;
  listTeams(): Promise<{ data: TeamListItem[] }>;
  listEmailTemplates(): Promise<{ data: EmailTemplate[] }>;
  listAssessments(): Promise<{ data: Assessment[] }>;
  getAccount(): Promise<{ id: number; display_name: string }>;
}

export interface AccountData {
  account: { id: number; display_name: string };
  users: Map<string, User>;
  teamsById: Map<number, TeamListItem>;
  /** Lower-cased display name → teams of that name (names need not be unique). */
  teamsByName: Map<string, TeamListItem[]>;
  templatesById: Map<number, EmailTemplate>;
  templatesByName: Map<string, EmailTemplate[]>;
  /** The account's catalog: lower-cased name or short name → test id (the names of api/catalog.ts's table are known besides). */
  assessmentsByName: Map<string, number>;
  assessmentIds: Set<number>;
  assessmentNames: Map<number, string>;
}

function push<K, V>(m: Map<K, V[]>, k: K, v: V) {
  const a = m.get(k);
  if (a) a.push(v);
  else m.set(k, [v]);
}

/** A lookup key for a name or email; a newer server may send null where the reference has a string. */
const keyOf = (v: unknown): string | undefined => (typeof v === 'string' ? v.trim().toLowerCase() : undefined);

export async function loadAccountData(api: BulkApi): Promise<AccountData> {
  const [account, users, teams, templates, assessments] = await Promise.all([
    api.getAccount(),
    api.listUsers(),
    api.listTeams(),
    api.listEmailTemplates(),
    api.listAssessments(),
  ]);
  const data: AccountData = {
    account: { id: account.id, display_name: account.display_name },
    users: new Map(users.data.flatMap((u) => { const k = keyOf(u.email); return k ? [[k, u] as const] : []; })),
    teamsById: new Map(teams.data.map((t) => [t.id, t])),
    teamsByName: new Map(),
    templatesById: new Map(),
    templatesByName: new Map(),
    assessmentsByName: new Map(),
    assessmentIds: new Set(),
    assessmentNames: new Map(),
  };
  for (const t of teams.data) {
    const k = keyOf(t.display_name);
    if (k) push(data.teamsByName, k, t);
  }
  for (const t of templates.data) {
    // Only invitation templates can be an invitation's template.
    if (t.template_type && t.template_type !== 'invitation') continue;
    data.templatesById.set(t.id, t);
    const k = keyOf(t.display_name);
    if (k) push(data.templatesByName, k, t);
  }
  for (const a of assessments.data) {
    data.assessmentIds.add(a.id);
    data.assessmentNames.set(a.id, a.display_name);
    for (const name of [keyOf(a.display_name), keyOf(a.short_name)]) if (name) data.assessmentsByName.set(name, a.id);
  }
  for (const id of Object.values(TEST_ID)) data.assessmentIds.add(id);
  return data;
}

/** Edit distance (insert, delete, replace), for "did you mean". */
function distance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) cur[j] = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    prev = cur;
  }
  return prev[b.length];
}

/** The name closest to `raw` among `names` (lower-cased keys), when it is close enough to be a slip. */
export function closestName(raw: string, names: Iterable<string>): string | undefined {
  const want = raw.trim().toLowerCase().replace(/\s+/g, ' ');
  let best: string | undefined;
  let bestD = Number.POSITIVE_INFINITY;
  for (const n of names) {
    const d = n.includes(want) || want.includes(n) ? Math.abs(n.length - want.length) : distance(want, n);
    if (d < bestD) {
      bestD = d;
      best = n;
    }
  }
  return best !== undefined && bestD <= Math.max(2, Math.floor(want.length / 4)) ? best : undefined;
}

/** ` (did you mean "Retail Stores"?)` with the name as the account writes it, or nothing. */
function suggestion<T extends { display_name: string }>(raw: string, byName: Map<string, T[]>): string {
  const k = closestName(raw, byName.keys());
  return k ? ` (did you mean "${byName.get(k)![0].display_name}"?)` : '';
}

export type Resolved<T> = { ok: true; value: T } | { ok: false; reason: string };

export function resolveTeam(a: AccountData, raw: string): Resolved<number> {
  const s = raw.trim();
  if (/^\d+$/.test(s)) {
    const id = Number(s);
    return a.teamsById.has(id) ? { ok: true, value: id } : { ok: false, reason: `team_id not found (${id})` };
  }
  const found = a.teamsByName.get(s.toLowerCase());
  if (!found) return { ok: false, reason: `No team named "${s}" in the account${suggestion(s, a.teamsByName)}` };
  if (found.length > 1) return { ok: false, reason: `Several teams are named "${s}"; use the team id (${found.map((t) => t.id).join(' or ')})` };
  return { ok: true, value: found[0].id };
}

export function resolveTemplate(a: AccountData, raw: string): Resolved<number> {
  const s = raw.trim();
  if (/^\d+$/.test(s)) {
    const id = Number(s);
    return a.templatesById.has(id) ? { ok: true, value: id } : { ok: false, reason: `email_template_id not found (${id})` };
  }
  const found = a.templatesByName.get(s.toLowerCase());
  if (!found) return { ok: false, reason: `No invitation email template named "${s}" in the account${suggestion(s, a.templatesByName)}` };
  if (found.length > 1) return { ok: false, reason: `Several templates are named "${s}"; use the id (${found.map((t) => t.id).join(' or ')})` };
  return { ok: true, value: found[0].id };
}

/** "Personality; Interests", "6,8", "personality + thinking skills" → test ids. */
export function resolveAssessments(a: AccountData, raw: string): Resolved<number[]> {
  const parts = raw
    .split(/[,;|/+&]|\band\b/i)
    .map((p) => p.trim())
    .filter(Boolean);
  const ids: number[] = [];
  for (const p of parts) {
    let id: number | undefined;
    if (/^\d+$/.test(p)) {
      id = Number(p);
      if (!a.assessmentIds.has(id)) return { ok: false, reason: `Unknown assessment test_id ${id}` };
    } else {
      // The account's own catalog first (a newer service may name more), then the one table.
      id = a.assessmentsByName.get(p.toLowerCase().replace(/\s+/g, ' ')) ?? assessmentIdOf(p);
      if (id === undefined) {
        const known = [...new Set(a.assessmentNames.values())].join(', ');
        return { ok: false, reason: `Unknown assessment "${p}" (known: ${known || 'Prescreen, Personality, Thinking, Interests'})` };
      }
    }
    if (!ids.includes(id)) ids.push(id);
  }
  if (ids.length === 0) return { ok: false, reason: 'At least one assessment is required' };
  return { ok: true, value: ids };
}

/** Exact (case-insensitive) email match among the partial matches of GET /invitations?email=. */
export async function findInvitationByEmail(api: Pick<BulkApi, 'listInvitations'>, email: string, signal?: AbortSignal): Promise<InvitationListItem | undefined> {
  const list = await api.listInvitations({ email }, signal);
  const want = email.trim().toLowerCase();
  return list.data.find((i) => keyOf(i.email) === want);
}

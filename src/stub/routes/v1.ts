/**
 * The superseded v1 interface on the same store (reference, last section).
 * Credentials in the query: `auth` = the account's live key, `sid` = the
 * account id. v1 has no test mode and no inviter (docs/stub.md).
 */
import { CUSTOM_ID_MAX, charLength } from '../../api/limits.js';
import { MSG } from '../../api/messages.js';
import { TEST_ID } from '../catalog-content.js';
import { type Reply, error as err, methodNotAllowed } from '../http/reply.js';
import { recordOutbox } from '../lifecycle.js';
import { indexPerson } from '../search-index.js';
import { newToken, nowIso } from '../ids.js';
import type { Store } from '../store.js';
import { type InvitationRow, assessmentUrl } from '../views.js';

const V1_AUTH_FAILED = 'Authentication failed: check the auth and sid query parameters';
const V1_JSON_ONLY = 'Content-Type must be application/json';

function authV1(store: Store, q: URLSearchParams): number | null {
  const auth = q.get('auth');
  const sid = q.get('sid');
  if (!auth || !sid || !/^\d+$/.test(sid)) return null;
  const row = store.get<{ account_id: number }>(
    "SELECT k.account_id FROM api_keys k JOIN accounts a ON a.id = k.account_id WHERE k.key = ? AND k.mode = 'live'",
    auth,
  );
  return row && row.account_id === Number(sid) ? row.account_id : null;
}

const ASSIGN_FLAGS: Array<[string, number]> = [
  ['assignPrescreen', TEST_ID.prescreen],
  ['assignPersonality', TEST_ID.personality],
  ['assignThinking', TEST_ID.thinking],
  ['assignInterests', TEST_ID.interests],
];

export async function handleV1(
  store: Store,
  origin: string,
  method: string,
  seg: string[],
  q: URLSearchParams,
  body: () => Promise<Record<string, unknown>>,
  contentType?: string,
): Promise<Reply | null> {
  const isCreate = seg.length === 2 && seg[0] === 'invitations' && seg[1] === 'create';
  const isGet = seg.length === 2 && seg[0] === 'invitations' && !isCreate;
  if (!isCreate && !isGet) return err(404, MSG.notFound);
  const allowed = isCreate ? 'POST' : 'GET';
  if (method !== allowed) return methodNotAllowed([allowed]);
  // The key travels in the query, so a web page could POST here without a
  // preflight (text/plain, a form) were any body taken: only JSON is, which
  // a browser sends cross-site only after a preflight the stub never grants,
  // as v2's Authorization header does.
  if (isCreate && !/^application\/json\s*(;|$)/i.test(contentType ?? '')) return err(415, V1_JSON_ONLY);
  const accountId = authV1(store, q);
  if (accountId === null) return err(401, V1_AUTH_FAILED);
  return isCreate ? create(store, origin, accountId, await body()) : get(store, origin, accountId, seg[1]);
}

function str(b: Record<string, unknown>, k: string, required: boolean): string | null | Reply {
  const v = b[k];
  if (v === undefined || v === null || (typeof v === 'string' && v.trim() === '')) return required ? err(400, `${k}: ${k} is required`) : null;
  if (typeof v !== 'string') return err(400, `${k}: ${k} must be a string`);
  return v.trim();
}

function bool(b: Record<string, unknown>, k: string, required: boolean): boolean | null | Reply {
  const v = b[k];
  if (v === undefined || v === null) return required ? err(400, `${k}: ${k} is required`) : null;
  if (typeof v !== 'boolean') return err(400, `${k}: ${k} must be a boolean`);
  return v;
}

const isReply = (x: unknown): x is Reply => typeof x === 'object' && x !== null && 'status' in x;

async function create(store: Store, origin: string, accountId: number, b: Record<string, unknown>): Promise<Reply> {
  const teamId = b.teamId;
  if (teamId === undefined || teamId === null) return err(400, 'teamId: teamId is required');
  if (typeof teamId !== 'number' || !Number.isInteger(teamId)) return err(400, 'teamId: teamId must be a number');
  const firstName = str(b, 'firstName', true);
  if (isReply(firstName)) return firstName;
  const lastName = str(b, 'lastName', true);
  if (isReply(lastName)) return lastName;
  const email = str(b, 'sentToEmail', true);
  if (isReply(email)) return email;
  if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email!)) return err(400, 'sentToEmail: Invalid email address');
  const customId = str(b, 'customId', false);
  if (isReply(customId)) return customId;
  if (customId && charLength(customId) > CUSTOM_ID_MAX) return err(400, 'customId: Custom ID must be at most 50 characters');
  const rawPhone = str(b, 'sentToPhone', false);
  if (isReply(rawPhone)) return rawPhone;
  const callback = str(b, 'statusCallbackUrl', false);
  if (isReply(callback)) return callback;
  const sendViaEmail = bool(b, 'sendViaEmail', true);
  if (isReply(sendViaEmail)) return sendViaEmail;
  const sendViaSms = bool(b, 'sendViaSms', false);
  if (isReply(sendViaSms)) return sendViaSms;
  const tests: number[] = [];
  for (const [k, id] of ASSIGN_FLAGS) {
    const v = bool(b, k, false);
    if (isReply(v)) return v;
    if (v) tests.push(id);
  }
  if (tests.length === 0) return err(400, 'At least one of assignPrescreen, assignPersonality, assignInterests, assignThinking must be true');
  const { toE164, assessmentRule } = await import('../../api/requests.js');
  let phone: string | null = null;
  if (rawPhone) {
    phone = toE164(rawPhone);
    if (!phone) return err(400, 'sentToPhone: Invalid phone number');
  }
  const team = store.get<{ id: number }>('SELECT id FROM teams WHERE id = ? AND account_id = ?', teamId, accountId);
  if (!team) return err(400, 'teamId not found');
  const rule = assessmentRule(tests);
  if (rule) return err(400, rule);
  if (sendViaSms && !phone) return err(400, MSG.smsNeedsPhone);
  // v1 has no template field: the team's first invitation template, else the account's.
  const template = store.get<{ id: number }>(
    `SELECT t.id FROM templates t LEFT JOIN template_teams tt ON tt.template_id = t.id AND tt.team_id = ?
     WHERE t.account_id = ? AND t.template_type = 'invitation' ORDER BY (tt.team_id IS NULL), t.id LIMIT 1`,
    teamId,
    accountId,
  );

  const result = store.write((): Reply | InvitationRow => {
    const lc = email!.toLowerCase();
    const sameTT = store.get('SELECT id FROM test_takers WHERE account_id = ? AND email_lc = ? AND team_id = ?', accountId, lc, teamId);
    if (sameTT) return err(400, MSG.duplicateTestTakerSameTeam(email!));
    const inv = store.get<{ team_id: number }>('SELECT team_id FROM invitations WHERE account_id = ? AND email_lc = ? ORDER BY (team_id = ?) DESC LIMIT 1', accountId, lc, teamId);
    if (inv) return err(400, inv.team_id === teamId ? MSG.duplicateInvitationSameTeam(email!) : MSG.duplicateOtherTeam(email!));
    const r = store.run(
      `INSERT INTO invitations (account_id, team_id, invited_by_user_id, created_at, accepted_at, first_name, last_name, email, email_lc,
        send_via_email, phone, send_via_sms, custom_id, person_id, invitation_template_id, ref_text, congrats_template_id,
        send_congrats_notification, target_score_profile_id, token, test_taker_id, status_callback_url, api_version)
       VALUES (?, ?, NULL, ?, NULL, ?, ?, ?, ?, ?, ?, ?, ?, NULL, ?, NULL, NULL, 0, NULL, ?, NULL, ?, 'v1')`,
      accountId, teamId, nowIso(), firstName, lastName, email, lc, sendViaEmail ? 1 : 0, phone, sendViaSms ? 1 : 0, customId,
      template?.id ?? null, newToken(), callback,
    );
    const id = Number(r.lastInsertRowid);
    indexPerson(store, 'invitations', id, email!, customId);
    tests.forEach((t, pos) => {
      store.run('INSERT INTO invitation_assessments (invitation_id, test_id, position) VALUES (?, ?, ?)', id, t, pos);
    });
    const row = store.get<InvitationRow>('SELECT * FROM invitations WHERE id = ?', id)!;
    const link = assessmentUrl(origin, row.token);
    if (sendViaEmail) {
      recordOutbox(store, {
        account_id: accountId, channel: 'email', kind: 'invitation', recipient: row.email,
        subject: `${row.first_name}, you are invited to take an assessment`,
        body: `Hello ${row.first_name} ${row.last_name}, start here: ${link}`,
        template_id: row.invitation_template_id, invitation_id: id, test_taker_id: null,
      });
    }
    if (sendViaSms && phone) {
      recordOutbox(store, {
        account_id: accountId, channel: 'sms', kind: 'invitation', recipient: phone, subject: null,
        body: `${row.first_name}, you are invited to take an assessment: ${link}`, template_id: null, invitation_id: id, test_taker_id: null,
      });
    }
    return row;
  });
  if (isReply(result)) return result;
  const row = result;
  return {
    status: 200,
    json: {
      ...v1Head(row),
      team_id: row.team_id,
      ...v1Tail(row),
      assessment_link: assessmentUrl(origin, row.token),
    },
  };
}

function get(store: Store, origin: string, accountId: number, idText: string): Reply {
  const id = /^\d{1,15}$/.test(idText) ? Number(idText) : null;
  const row = id === null ? undefined : store.get<InvitationRow>('SELECT * FROM invitations WHERE id = ? AND account_id = ?', id, accountId);
  if (!row) return err(404, MSG.invitationNotFound);
  const team = store.get<{ id: number; display_name: string }>('SELECT id, display_name FROM teams WHERE id = ?', row.team_id)!;
  const account = store.get<{ id: number; display_name: string }>('SELECT id, display_name FROM accounts WHERE id = ?', row.account_id)!;
  const tt = row.test_taker_id === null ? undefined : store.get<{ id: number; created_at: string }>('SELECT id, created_at FROM test_takers WHERE id = ?', row.test_taker_id);
  return {
    status: 200,
    json: {
      ...v1Head(row),
      accepted_at: row.accepted_at,
      ...v1Tail(row),
      team: { id: team.id, display_name: team.display_name, account: { id: account.id, display_name: account.display_name } },
      test_taker_seats: tt ? [{ id: tt.id, created_at: tt.created_at }] : [],
      test_taker_magic_links: [{ id: row.id, created_at: row.created_at, is_revoked: false, magic_link: assessmentUrl(origin, row.token) }],
    },
  };
}

/** The v1 invitation fields both v1 routes answer with, in the reference's order. */
function v1Head(row: InvitationRow) {
  return { id: row.id, invite_key: row.token, first_name: row.first_name, last_name: row.last_name, created_at: row.created_at };
}

function v1Tail(row: InvitationRow) {
  return {
    custom_id: row.custom_id,
    ref_text: row.ref_text,
    send_via_email: row.send_via_email === 1,
    send_via_sms: row.send_via_sms === 1,
    sent_to_email: row.email,
    sent_to_phone: row.phone,
    status_callback_url: row.status_callback_url,
  };
}

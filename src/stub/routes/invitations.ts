/** GET, POST /invitations and GET, PUT /invitations/:id: every rule of the reference, in its order (docs/stub.md). */
import { MSG } from '../../api/messages.js';
import type { Invitation } from '../../api/schemas.js';
import { ASSESSMENTS } from '../catalog-content.js';
import * as F from '../fakes.js';
import { groupCommitOf } from '../group-commit.js';
import { type Reply, fail, json } from '../http/reply.js';
import { recordOutbox } from '../lifecycle.js';
import { indexPerson } from '../search-index.js';
import { newToken, nowIso } from '../ids.js';
import type { Store } from '../store.js';
import { type InvitationListRow, type InvitationRow, type UserRow, assessmentRef, assessmentUrl, invitationListItem, invitationObject, templateRef } from '../views.js';
import { type Call, pathId, list, ref, teamOfAccount } from './call.js';
import { fakeCtx } from './account-context.js';
import { listFilters, peoplePage } from './list-filters.js';

export function listInvitations(c: Call): Reply {
  const f = listFilters(c);
  if (c.auth.mode === 'test') {
    const team = f.teamId !== undefined ? teamOfAccount(c, f.teamId) : undefined;
    return list(c, [F.fakeInvitationListItem(fakeCtx(c, team), f)]);
  }
  return c.store.read(() => {
    const { total, rows } = peoplePage<InvitationListRow>(c, 'invitations', f);
    return list(c, rows.map((r) => invitationListItem(r, c.origin)), total);
  });
}

function findInvitation(c: Call, idText: string): InvitationRow {
  const id = pathId(idText);
  const row = id === null ? undefined : c.store.get<InvitationRow>('SELECT * FROM invitations WHERE id = ? AND account_id = ?', id, c.auth.accountId);
  if (!row) fail(MSG.invitationNotFound);
  return row;
}

export function getInvitation(c: Call): Reply {
  // Test keys: a fake for any id (reference); an id that is not a number gets a stable made-up one.
  if (c.auth.mode === 'test') return json(200, F.fakeInvitation(fakeCtx(c), pathId(c.params[0]) ?? F.fakeId(c.params[0])));
  return json(200, invitationObject(c.store, findInvitation(c, c.params[0]), 'live', c.origin));
}

function insertAssessments(store: Store, invitationId: number, testIds: number[]): void {
  if (testIds.length === 0) return;
  const values = testIds.map(() => '(?, ?, ?)').join(', ');
  store.run(`INSERT INTO invitation_assessments (invitation_id, test_id, position) VALUES ${values}`, ...testIds.flatMap((t, pos) => [invitationId, t, pos]));
}

type Requests = typeof import('../../api/requests.js');
let requestsModule: Promise<Requests> | undefined;
/** The request schemas (zod, libphonenumber): loaded on the first write. */
function requests(): Promise<Requests> {
  requestsModule ??= import('../../api/requests.js');
  return requestsModule;
}

function userByEmail(c: Call, email: string): UserRow | undefined {
  const lc = email.trim().toLowerCase();
  return ref(c, `user:${c.auth.accountId}:${lc}`, () => c.store.get<UserRow>('SELECT * FROM users WHERE account_id = ? AND email_lc = ?', c.auth.accountId, lc));
}

function templateOfAccount(c: Call, id: number, type: 'invitation' | 'congrats'): boolean {
  return ref(c, `template:${c.auth.accountId}:${id}:${type}`, () =>
    c.store.get<{ id: number }>('SELECT id FROM templates WHERE id = ? AND account_id = ? AND template_type = ?', id, c.auth.accountId, type) ? true : undefined,
  ) === true;
}

function checkTestIds(r: Requests, ids: number[]): void {
  for (const id of ids) if (!ASSESSMENTS.some((a) => a.id === id)) fail(MSG.unknownAssessment(id));
  const rule = r.assessmentRule(ids);
  if (rule) fail(rule);
}

/**
 * The duplicate rules: an invitation or test taker with this email on the
 * same team, then an invitation (or test taker) on another team of the
 * account. `except` is the invitation being updated.
 */
function checkDuplicates(c: Call, teamId: number, email: string, except: { invitationId: number; testTakerId: number | null } | null = null): void {
  const lc = email.toLowerCase();
  // One statement: the team of a matching test taker and of a matching invitation, the same team first.
  const d = c.store.get<{ tt: number | null; inv: number | null }>(
    `SELECT
       (SELECT team_id FROM test_takers WHERE account_id = @account AND email_lc = @email AND id <> @tt ORDER BY (team_id = @team) DESC LIMIT 1) AS tt,
       (SELECT team_id FROM invitations WHERE account_id = @account AND email_lc = @email AND id <> @inv ORDER BY (team_id = @team) DESC LIMIT 1) AS inv`,
    { account: c.auth.accountId, email: lc, tt: except?.testTakerId ?? -1, inv: except?.invitationId ?? -1, team: teamId },
  )!;
  if (d.tt === teamId) fail(MSG.duplicateTestTakerSameTeam(email));
  if (d.inv === teamId) fail(MSG.duplicateInvitationSameTeam(email));
  if (d.inv !== null || d.tt !== null) fail(MSG.duplicateOtherTeam(email));
}

interface ResolvedCreate {
  first_name: string;
  last_name: string;
  email: string;
  inviter: UserRow;
  teamId: number;
  testIds: number[];
  sendViaEmail: boolean;
  sendViaSms: boolean;
  phone: string | null;
  templateId: number | null;
  customId: string | null;
  personId: string | null;
  refText: string | null;
}

/** Every rule of POST /invitations, in order (docs/stub.md); live and test keys alike. */
async function resolveCreate(c: Call): Promise<ResolvedCreate> {
  const raw = await c.body();
  const r = await requests();
  const parsed = r.CreateInvitationBody.safeParse(raw);
  if (!parsed.success) fail(r.validationError(parsed.error, raw));
  const b = parsed.data;
  const inviter = userByEmail(c, b.created_by_user_email);
  if (!inviter) fail(MSG.userNotFound(b.created_by_user_email));

  let teamId: number;
  if (b.team_id !== undefined) {
    if (!teamOfAccount(c, b.team_id)) fail(MSG.teamNotFound);
    teamId = b.team_id;
  } else {
    if (inviter.default_team_id === null || !teamOfAccount(c, inviter.default_team_id)) fail(MSG.noDefaultTeam(inviter.email));
    teamId = inviter.default_team_id;
  }
  let testIds: number[];
  if (b.assessments_to_assign !== undefined) testIds = [...new Set(b.assessments_to_assign.map((a) => a.test_id))];
  else {
    testIds = JSON.parse(inviter.default_test_ids) as number[];
    if (testIds.length === 0) fail(MSG.noDefaultAssessments(inviter.email));
  }
  const sendViaEmail = b.send_via_email ?? true;
  const sendViaSms = b.send_via_sms ?? false;
  // Rule 1: an omitted template comes from the inviter, whatever send_via_email;
  // rule 2: only sending by email needs one.
  const templateId: number | null = b.email_template_id ?? inviter.default_invitation_template_id;
  if (sendViaEmail && templateId === null) fail(MSG.noDefaultTemplate(inviter.email));
  checkTestIds(r, testIds);
  const phone = b.phone ?? null;
  const sms = r.smsRule(sendViaSms, phone);
  if (sms) fail(sms);
  if (b.email_template_id !== undefined && !templateOfAccount(c, b.email_template_id, 'invitation')) fail(MSG.templateNotFound);
  // Live: checked inside the write transaction (createInvitation), where it cannot race.
  if (c.auth.mode === 'test') checkDuplicates(c, teamId, b.email);
  return {
    first_name: b.first_name,
    last_name: b.last_name,
    email: b.email,
    inviter,
    teamId,
    testIds,
    sendViaEmail,
    sendViaSms,
    phone,
    templateId,
    customId: b.custom_id ?? null,
    personId: b.person_id ?? null,
    refText: b.ref_text ?? null,
  };
}

export async function createInvitation(c: Call): Promise<Reply> {
  const v = await resolveCreate(c);
  const congratsId = v.inviter.default_congrats_template_id;
  const sendCongrats = congratsId !== null && v.inviter.send_congrats_notification === 1;
  if (c.auth.mode === 'test') {
    const team = teamOfAccount(c, v.teamId)!;
    const ctx = fakeCtx(c, team);
    const id = F.fakeId(`post:${v.email}:${ctx.now}`);
    const fake = F.fakeInvitation(ctx, id, {
      invited_by_user: { id: v.inviter.id, first_name: v.inviter.first_name, last_name: v.inviter.last_name, email: v.inviter.email },
      first_name: v.first_name,
      last_name: v.last_name,
      email: v.email,
      send_via_email: v.sendViaEmail,
      phone: v.phone,
      send_via_sms: v.sendViaSms,
      custom_id: v.customId,
      person_id: v.personId,
      invitation_email_template: templateRef(c.store, v.templateId),
      ref_text: v.refText,
      congrats_email_template: templateRef(c.store, congratsId),
      send_congrats_notification: sendCongrats,
      invitation_assessments: v.testIds.map(assessmentRef),
    });
    return json(201, fake);
  }
  // Group commit: the requests of one event-loop turn share a transaction;
  // this one is answered after that commit (src/stub/group-commit.ts).
  const row = await groupCommitOf(c.store).submit<InvitationRow>({
    // Inside the write lock, after the writes of the requests before it: two
    // requests for one email must not both pass.
    check: () => checkDuplicates(c, v.teamId, v.email),
    apply: () => {
      const token = newToken();
      const createdAt = nowIso();
      const r = c.store.run(
        `INSERT INTO invitations (account_id, team_id, invited_by_user_id, created_at, accepted_at, first_name, last_name, email, email_lc,
          send_via_email, phone, send_via_sms, custom_id, person_id, invitation_template_id, ref_text, congrats_template_id,
          send_congrats_notification, target_score_profile_id, token, test_taker_id)
         VALUES (?, ?, ?, ?, NULL, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, NULL, ?, NULL)`,
        c.auth.accountId, v.teamId, v.inviter.id, createdAt, v.first_name, v.last_name, v.email, v.email.toLowerCase(),
        v.sendViaEmail ? 1 : 0, v.phone, v.sendViaSms ? 1 : 0, v.customId, v.personId, v.templateId, v.refText, congratsId,
        sendCongrats ? 1 : 0, token,
      );
      const id = Number(r.lastInsertRowid);
      indexPerson(c.store, 'invitations', id, v.email, v.customId);
      insertAssessments(c.store, id, v.testIds);
      // The row as stored, built here rather than read back (one statement less per request).
      const inv: InvitationRow = {
        id,
        account_id: c.auth.accountId,
        team_id: v.teamId,
        invited_by_user_id: v.inviter.id,
        created_at: createdAt,
        accepted_at: null,
        first_name: v.first_name,
        last_name: v.last_name,
        email: v.email,
        send_via_email: v.sendViaEmail ? 1 : 0,
        phone: v.phone,
        send_via_sms: v.sendViaSms ? 1 : 0,
        custom_id: v.customId,
        person_id: v.personId,
        invitation_template_id: v.templateId,
        ref_text: v.refText,
        congrats_template_id: congratsId,
        send_congrats_notification: sendCongrats ? 1 : 0,
        target_score_profile_id: null,
        token,
        test_taker_id: null,
        status_callback_url: null,
      };
      recordDelivery(c, inv);
      return inv;
    },
  });
  return json(201, invitationObject(c.store, row, 'live', c.origin, v.testIds));
}

/** The email and/or SMS the service sends for a new invitation, per its flags. */
function recordDelivery(c: Call, inv: InvitationRow): void {
  const link = assessmentUrl(c.origin, inv.token);
  const template = templateRef(c.store, inv.invitation_template_id);
  if (inv.send_via_email === 1) {
    recordOutbox(c.store, {
      account_id: inv.account_id,
      channel: 'email',
      kind: 'invitation',
      recipient: inv.email,
      subject: `${inv.first_name}, you are invited to take an assessment`,
      body: `Template: ${template?.display_name ?? '(none)'}. Hello ${inv.first_name} ${inv.last_name}, start here: ${link}${inv.ref_text ? ` (ref: ${inv.ref_text})` : ''}`,
      template_id: inv.invitation_template_id,
      invitation_id: inv.id,
      test_taker_id: null,
    });
  }
  if (inv.send_via_sms === 1 && inv.phone) {
    recordOutbox(c.store, {
      account_id: inv.account_id,
      channel: 'sms',
      kind: 'invitation',
      recipient: inv.phone,
      subject: null,
      body: `${inv.first_name}, you are invited to take an assessment: ${link}`,
      template_id: null,
      invitation_id: inv.id,
      test_taker_id: null,
    });
  }
}

export async function updateInvitation(c: Call): Promise<Reply> {
  const live = c.auth.mode === 'live';
  let existing: InvitationRow | undefined;
  if (live) existing = findInvitation(c, c.params[0]);
  const raw = await c.body();
  const r = await requests();
  const parsed = r.UpdateInvitationBody.safeParse(raw);
  if (!parsed.success) fail(r.validationError(parsed.error, raw));
  const b = parsed.data;

  if (b.assessments_to_assign !== undefined) {
    if (existing?.accepted_at) fail(MSG.assessmentsLocked);
    checkTestIds(r, [...new Set(b.assessments_to_assign.map((a) => a.test_id))]);
  }
  if (b.send_via_sms !== undefined || b.phone !== undefined) {
    const sms = b.send_via_sms ?? existing?.send_via_sms === 1;
    const phone = b.phone !== undefined ? b.phone : (existing?.phone ?? null);
    const rule = r.smsRule(sms, phone);
    if (rule) fail(rule);
  }
  if (b.email_template_id !== undefined && !templateOfAccount(c, b.email_template_id, 'invitation')) fail(MSG.templateNotFound);
  if (b.congrats_email_template_id !== undefined && !templateOfAccount(c, b.congrats_email_template_id, 'congrats')) fail(MSG.congratsTemplateNotFound);

  if (!existing) {
    const id = pathId(c.params[0]) ?? F.fakeId(c.params[0]);
    const ctx = fakeCtx(c);
    const fields: Partial<Invitation> = {};
    for (const k of ['first_name', 'last_name', 'email', 'phone', 'custom_id', 'person_id', 'ref_text', 'send_via_email', 'send_via_sms', 'send_congrats_notification'] as const) {
      if (b[k] !== undefined) (fields as Record<string, unknown>)[k] = b[k];
    }
    if (b.email_template_id !== undefined) fields.invitation_email_template = templateRef(c.store, b.email_template_id);
    if (b.congrats_email_template_id !== undefined) fields.congrats_email_template = templateRef(c.store, b.congrats_email_template_id);
    if (b.assessments_to_assign !== undefined) fields.invitation_assessments = [...new Set(b.assessments_to_assign.map((a) => a.test_id))].map(assessmentRef);
    return json(200, F.fakeInvitation(ctx, id, fields));
  }

  const inv = existing;
  const row = c.store.write(() => {
    if (b.email !== undefined && b.email.toLowerCase() !== inv.email.toLowerCase()) {
      checkDuplicates(c, inv.team_id, b.email, { invitationId: inv.id, testTakerId: inv.test_taker_id });
    }
    const sets: string[] = [];
    const args: unknown[] = [];
    const set = (col: string, value: unknown) => {
      sets.push(`${col} = ?`);
      args.push(value);
    };
    if (b.first_name !== undefined) set('first_name', b.first_name);
    if (b.last_name !== undefined) set('last_name', b.last_name);
    if (b.email !== undefined) {
      set('email', b.email);
      set('email_lc', b.email.toLowerCase());
    }
    if (b.phone !== undefined) set('phone', b.phone);
    if (b.custom_id !== undefined) set('custom_id', b.custom_id);
    if (b.person_id !== undefined) set('person_id', b.person_id);
    if (b.ref_text !== undefined) set('ref_text', b.ref_text);
    if (b.send_via_email !== undefined) set('send_via_email', b.send_via_email ? 1 : 0);
    if (b.send_via_sms !== undefined) set('send_via_sms', b.send_via_sms ? 1 : 0);
    if (b.email_template_id !== undefined) set('invitation_template_id', b.email_template_id);
    if (b.send_congrats_notification !== undefined) set('send_congrats_notification', b.send_congrats_notification ? 1 : 0);
    if (b.congrats_email_template_id !== undefined) set('congrats_template_id', b.congrats_email_template_id);
    if (sets.length > 0) c.store.run(`UPDATE invitations SET ${sets.join(', ')} WHERE id = ?`, ...args, inv.id);
    if (b.assessments_to_assign !== undefined) {
      c.store.run('DELETE FROM invitation_assessments WHERE invitation_id = ?', inv.id);
      for (const [pos, t] of [...new Set(b.assessments_to_assign.map((a) => a.test_id))].entries()) {
        c.store.run('INSERT INTO invitation_assessments (invitation_id, test_id, position) VALUES (?, ?, ?)', inv.id, t, pos);
      }
    }
    // The participant's own details follow onto the test taker, who is the same person.
    if (inv.test_taker_id !== null) {
      const tsets: string[] = [];
      const targs: unknown[] = [];
      const tset = (col: string, value: unknown) => {
        tsets.push(`${col} = ?`);
        targs.push(value);
      };
      if (b.first_name !== undefined) tset('first_name', b.first_name);
      if (b.last_name !== undefined) tset('last_name', b.last_name);
      if (b.email !== undefined) {
        tset('email', b.email);
        tset('email_lc', b.email.toLowerCase());
      }
      if (b.phone !== undefined) tset('phone', b.phone);
      if (b.custom_id !== undefined) tset('custom_id', b.custom_id);
      if (b.person_id !== undefined) tset('person_id', b.person_id);
      if (tsets.length > 0) c.store.run(`UPDATE test_takers SET ${tsets.join(', ')} WHERE id = ?`, ...targs, inv.test_taker_id);
    }
    return c.store.get<InvitationRow>('SELECT * FROM invitations WHERE id = ?', inv.id)!;
  });
  return json(200, invitationObject(c.store, row, 'live', c.origin));
}

/**
 * What the participant does on the service's site, with no API call: accept
 * the invitation, complete assessments. The `jobfit stub accept/complete`
 * commands and the participant page call these; they work on the SQLite file
 * directly, so a running `stub serve` sees the changes at once.
 *
 * Every change emits events into the `events` table (recordEvent). Delivery
 * over HTTP is webhooks' business: each event's delivery is queued in the
 * same transaction, and tried at once after the commit (webhooks.ts).
 */
import { randomBytes } from 'node:crypto';
import { TEST_ID } from './catalog-content.js';
import { indexPerson } from './search-index.js';
import { newProfileId, nowIso } from './ids.js';
import { type Store, originOf } from './store.js';
import { profileObject } from './profile-views.js';
import { kickDeliveries } from './webhooks/deliver.js';
import { enqueueDelivery } from './webhooks/queue.js';
import {
  type InvitationRow,
  type ProfileRow,
  type TestTakerRow,
  type UserRow,
  assessmentRef,
  invitationObject,
  invitationTests,
  testTakerObject,
  withoutMode,
} from './views.js';

export const API_VERSION = '2.3.0';

/** Thrown for a lifecycle step that cannot happen (unknown id, already done). */
export class LifecycleError extends Error {
  override name = 'LifecycleError';
}

export interface StoredEvent {
  seq: number;
  id: string;
  account_id: number;
  team_id: number | null;
  type: string;
  created_at: string;
  /** The full envelope as it would be POSTed. */
  payload: EventEnvelope;
}

export interface EventEnvelope {
  id: string;
  type: string;
  object: 'event';
  created_at: string;
  api_version: string;
  data: { object: Record<string, unknown> };
}


/**
 * Stores one event, and its delivery decision, in the caller's transaction;
 * test keys never reach here (nothing they do is stored).
 */
export function recordEvent(store: Store, accountId: number, teamId: number | null, type: string, object: Record<string, unknown>, at = new Date()): StoredEvent {
  const payload: EventEnvelope = {
    id: `evt_${randomBytes(12).toString('hex')}`,
    type,
    object: 'event',
    created_at: at.toISOString(),
    api_version: API_VERSION,
    data: { object },
  };
  const r = store.run(
    'INSERT INTO events (id, account_id, team_id, type, created_at, payload) VALUES (?, ?, ?, ?, ?, ?)',
    payload.id,
    accountId,
    teamId,
    type,
    payload.created_at,
    JSON.stringify(payload),
  );
  // Delivery is decided in the same transaction (webhooks.ts): pending or skipped with the reason.
  enqueueDelivery(store, { id: payload.id, account_id: accountId, team_id: teamId, mode: 'live' });
  const event: StoredEvent = { seq: Number(r.lastInsertRowid), id: payload.id, account_id: accountId, team_id: teamId, type, created_at: payload.created_at, payload };
  pending.push(event);
  return event;
}

/** Events recorded by the write in progress (so that a write that stored one kicks the deliveries). */
const pending: StoredEvent[] = [];

/** Runs a lifecycle write and, after it commits, makes the first delivery attempt of its events. */
function writeAndNotify<T>(store: Store, fn: () => T): T {
  try {
    const out = store.write(fn);
    const sent = pending.length > 0;
    pending.length = 0;
    // The first delivery attempt is made at once by this process; retries by any delivery loop.
    if (sent) kickDeliveries(store);
    return out;
  } catch (err) {
    pending.length = 0;
    throw err;
  }
}

/** Events after `afterSeq`, oldest first (for `stub events` and cross-process delivery). */
export function listEvents(store: Store, opts: { afterSeq?: number; accountId?: number; limit?: number } = {}): StoredEvent[] {
  const rows = store.all<Omit<StoredEvent, 'payload'> & { payload: string }>(
    'SELECT * FROM events WHERE seq > ? AND (? IS NULL OR account_id = ?) ORDER BY seq LIMIT ?',
    opts.afterSeq ?? 0,
    opts.accountId ?? null,
    opts.accountId ?? null,
    opts.limit ?? 1_000_000,
  );
  return rows.map((r) => ({ ...r, payload: JSON.parse(r.payload) as EventEnvelope }));
}

// ------------------------------------------------------------------ outbox

export interface OutboxMessage {
  id: number;
  account_id: number;
  channel: 'email' | 'sms';
  kind: 'invitation' | 'completion';
  recipient: string;
  subject: string | null;
  body: string;
  template_id: number | null;
  invitation_id: number | null;
  test_taker_id: number | null;
  created_at: string;
}

export function recordOutbox(store: Store, m: Omit<OutboxMessage, 'id' | 'created_at'>, at = nowIso()): void {
  store.run(
    'INSERT INTO outbox (account_id, channel, kind, recipient, subject, body, template_id, invitation_id, test_taker_id, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
    m.account_id,
    m.channel,
    m.kind,
    m.recipient,
    m.subject,
    m.body,
    m.template_id,
    m.invitation_id,
    m.test_taker_id,
    at,
  );
}

/** Messages oldest first; `since` (ISO time) keeps those sent then or later, `limit` the newest N of them. */
export function listOutbox(store: Store, opts: { accountId?: number; since?: string; limit?: number } = {}): OutboxMessage[] {
  const rows = store.all<OutboxMessage>(
    'SELECT * FROM outbox WHERE (? IS NULL OR account_id = ?) AND (? IS NULL OR created_at >= ?) ORDER BY id DESC LIMIT ?',
    opts.accountId ?? null,
    opts.accountId ?? null,
    opts.since ?? null,
    opts.since ?? null,
    opts.limit ?? -1,
  );
  return rows.reverse();
}

// ------------------------------------------------------------------ accept

export interface AcceptResult {
  invitationId: number;
  testTakerId: number;
  acceptedAt: string;
}

/** The participant accepts: accepted_at set, the test taker created with the invitation's assessments. */
export function accept(store: Store, invitationId: number, opts: { now?: Date } = {}): AcceptResult {
  return writeAndNotify(store, () => {
    const inv = store.get<InvitationRow>('SELECT * FROM invitations WHERE id = ?', invitationId);
    if (!inv) throw new LifecycleError(`Invitation ${invitationId} not found.`);
    if (inv.accepted_at) throw new LifecycleError(`Invitation ${invitationId} was already accepted (test taker ${inv.test_taker_id}).`);
    const at = opts.now ?? new Date();
    const acceptedAt = at.toISOString();
    const r = store.run(
      `INSERT INTO test_takers (account_id, team_id, invitation_id, created_at, first_name, last_name, email, email_lc, phone, custom_id, person_id)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      inv.account_id,
      inv.team_id,
      inv.id,
      acceptedAt,
      inv.first_name,
      inv.last_name,
      inv.email,
      inv.email.toLowerCase(),
      inv.phone,
      inv.custom_id,
      inv.person_id,
    );
    const testTakerId = Number(r.lastInsertRowid);
    indexPerson(store, 'test_takers', testTakerId, inv.email, inv.custom_id);
    invitationTests(store, inv.id).forEach((t, pos) => {
      store.run('INSERT INTO assigned_assessments (test_taker_id, test_id, position, completed_at, language) VALUES (?, ?, ?, NULL, NULL)', testTakerId, t, pos);
    });
    store.run('UPDATE invitations SET accepted_at = ?, test_taker_id = ? WHERE id = ?', acceptedAt, testTakerId, inv.id);

    const origin = originOf(store);
    const updated = store.get<InvitationRow>('SELECT * FROM invitations WHERE id = ?', inv.id)!;
    recordEvent(store, inv.account_id, inv.team_id, 'invitation.accepted', acceptedObject(store, updated, origin), at);
    recordEvent(store, inv.account_id, inv.team_id, 'test_taker.created', createdObject(store, store.get<TestTakerRow>('SELECT * FROM test_takers WHERE id = ?', testTakerId)!, origin), at);
    return { invitationId: inv.id, testTakerId, acceptedAt };
  });
}

// ---------------------------------------------------------------- event objects

function acceptedObject(store: Store, inv: InvitationRow, origin: string): Record<string, unknown> {
  return { ...withoutMode(invitationObject(store, inv, 'live', origin)) };
}

/** Exactly the reference's payload for test_taker.created. */
function createdObject(store: Store, row: TestTakerRow, origin: string): Record<string, unknown> {
  const tt = testTakerObject(store, row, 'live', origin);
  return {
    object: 'test_taker',
    id: tt.id,
    person_id: tt.person_id,
    invitation_id: tt.invitation_id,
    scorecard_url: tt.scorecard_url,
    job_fit_summary_url: tt.job_fit_summary_url,
    career_navigation_url: tt.career_navigation_url,
  };
}

function completedObject(tt: TestTakerRow, a: { id: number; test_id: number }, completedAt: string, language: string): Record<string, unknown> {
  return {
    object: 'assigned_assessment',
    id: a.id,
    test_taker_id: tt.id,
    invitation_id: tt.invitation_id,
    person_id: tt.person_id,
    custom_id: tt.custom_id,
    completed_at: completedAt,
    language,
    assessment: assessmentRef(a.test_id),
  };
}

// ---------------------------------------------------------------- trigger

export const TRIGGER_TYPES = ['invitation.accepted', 'test_taker.created', 'test_taker.assessment_completed', 'career_navigation_profile.created'] as const;
export type TriggerType = (typeof TRIGGER_TYPES)[number];

/**
 * Emits one event about data that already exists, without driving the
 * lifecycle (`jobfit stub trigger`): the payload is built from the test
 * taker's current state, as the lifecycle would have sent it. Without a test
 * taker, the newest one of the account that has what the event is about.
 */
export function trigger(store: Store, type: TriggerType, opts: { testTakerId?: number; accountId?: number; now?: Date } = {}): StoredEvent {
  return writeAndNotify(store, () => {
    const needs: Record<TriggerType, string> = {
      'invitation.accepted': 't.invitation_id IS NOT NULL',
      'test_taker.created': '1',
      'test_taker.assessment_completed': 'EXISTS (SELECT 1 FROM assigned_assessments a WHERE a.test_taker_id = t.id AND a.completed_at IS NOT NULL)',
      'career_navigation_profile.created': 'EXISTS (SELECT 1 FROM career_navigation_profiles p WHERE p.test_taker_id = t.id)',
    };
    const what: Record<TriggerType, string> = {
      'invitation.accepted': 'no accepted invitation',
      'test_taker.created': 'no test taker',
      'test_taker.assessment_completed': 'no completed assessment',
      'career_navigation_profile.created': 'no career navigation profile',
    };
    let tt: TestTakerRow | undefined;
    if (opts.testTakerId !== undefined) {
      tt = store.get<TestTakerRow>('SELECT * FROM test_takers WHERE id = ?', opts.testTakerId);
      if (!tt) throw new LifecycleError(`Test taker ${opts.testTakerId} not found.`);
      if (!store.get(`SELECT 1 FROM test_takers t WHERE t.id = ? AND ${needs[type]}`, tt.id)) {
        throw new LifecycleError(`Test taker ${tt.id} has ${what[type]} yet, so there is no ${type} to send (\`jobfit stub complete ${tt.id}\` makes one).`);
      }
    } else {
      const account = opts.accountId ?? store.get<{ id: number }>('SELECT id FROM accounts ORDER BY id LIMIT 1')?.id;
      tt = store.get<TestTakerRow>(`SELECT * FROM test_takers t WHERE t.account_id = ? AND ${needs[type]} ORDER BY t.id DESC LIMIT 1`, account);
      if (!tt) throw new LifecycleError(`Account ${String(account)} has ${what[type]} to send ${type} about (\`jobfit stub accept\` and \`jobfit stub complete\` make one).`);
    }
    const origin = originOf(store);
    const at = opts.now ?? new Date();
    let object: Record<string, unknown>;
    if (type === 'invitation.accepted') {
      object = acceptedObject(store, store.get<InvitationRow>('SELECT * FROM invitations WHERE id = ?', tt.invitation_id)!, origin);
    } else if (type === 'test_taker.created') {
      object = createdObject(store, tt, origin);
    } else if (type === 'test_taker.assessment_completed') {
      const a = store.get<{ id: number; test_id: number; completed_at: string; language: string | null }>(
        'SELECT id, test_id, completed_at, language FROM assigned_assessments WHERE test_taker_id = ? AND completed_at IS NOT NULL ORDER BY completed_at DESC, id DESC LIMIT 1',
        tt.id,
      )!;
      object = completedObject(tt, a, a.completed_at, a.language ?? 'en');
    } else {
      const p = store.get<ProfileRow>('SELECT * FROM career_navigation_profiles WHERE test_taker_id = ?', tt.id)!;
      object = { ...withoutMode(profileObject(store, p, 'live', origin)) };
    }
    return recordEvent(store, tt.account_id, tt.team_id, type, object, at);
  });
}

// ---------------------------------------------------------------- complete

export type AssessmentChoice = 'personality' | 'thinking' | 'interests' | 'prescreen' | 'all';

export interface CompleteResult {
  testTakerId: number;
  completed: Array<{ test_id: number; completed_at: string }>;
  careerNavigationProfileId: string | null;
  allComplete: boolean;
  notifiedInviter: string | null;
}

/**
 * The participant completes one assigned assessment, or every one still open
 * ('all'). Completing Career Interests creates the career navigation profile;
 * completing the last one emails the inviter if they asked for it.
 */
export function complete(store: Store, testTakerId: number, opts: { assessment?: AssessmentChoice; language?: string; now?: Date } = {}): CompleteResult {
  const choice = opts.assessment ?? 'all';
  const language = opts.language ?? 'en';
  return writeAndNotify(store, () => {
    const tt = store.get<TestTakerRow>('SELECT * FROM test_takers WHERE id = ?', testTakerId);
    if (!tt) throw new LifecycleError(`Test taker ${testTakerId} not found.`);
    const assigned = store.all<{ id: number; test_id: number; completed_at: string | null }>(
      'SELECT id, test_id, completed_at FROM assigned_assessments WHERE test_taker_id = ? ORDER BY position',
      testTakerId,
    );
    let targets: typeof assigned;
    if (choice === 'all') {
      targets = assigned.filter((a) => a.completed_at === null);
      if (targets.length === 0) throw new LifecycleError(`Test taker ${testTakerId} has no assessment left to complete.`);
    } else {
      const testId = TEST_ID[choice];
      const a = assigned.find((x) => x.test_id === testId);
      if (!a) {
        const names = assigned.map((x) => assessmentRef(x.test_id).display_name).join(', ');
        throw new LifecycleError(`${assessmentRef(testId).display_name} is not assigned to test taker ${testTakerId} (assigned: ${names || 'none'}).`);
      }
      if (a.completed_at) throw new LifecycleError(`${assessmentRef(testId).display_name} is already complete for test taker ${testTakerId}.`);
      targets = [a];
    }

    const at = opts.now ?? new Date();
    const origin = originOf(store);
    const done: CompleteResult['completed'] = [];
    let profileId: string | null = null;
    for (const a of targets) {
      // Each completion a millisecond apart: events keep a stable order by time.
      const when = new Date(at.getTime() + done.length);
      const iso = when.toISOString();
      store.run('UPDATE assigned_assessments SET completed_at = ?, language = ? WHERE id = ?', iso, language, a.id);
      done.push({ test_id: a.test_id, completed_at: iso });
      recordEvent(store, tt.account_id, tt.team_id, 'test_taker.assessment_completed', completedObject(tt, a, iso, language), when);
      if (a.test_id === TEST_ID.interests && !store.get('SELECT id FROM career_navigation_profiles WHERE test_taker_id = ?', tt.id)) {
        profileId = newProfileId();
        const seq = Number(store.meta('cnp_seq') ?? '0') + 1;
        store.setMeta('cnp_seq', String(seq));
        store.run('INSERT INTO career_navigation_profiles (id, account_id, test_taker_id, created_at, seq) VALUES (?, ?, ?, ?, ?)', profileId, tt.account_id, tt.id, iso, seq);
        const p = store.get<ProfileRow>('SELECT * FROM career_navigation_profiles WHERE id = ?', profileId)!;
        recordEvent(store, tt.account_id, tt.team_id, 'career_navigation_profile.created', { ...withoutMode(profileObject(store, p, 'live', origin)) }, when);
      }
    }

    const open = store.get<{ n: number }>('SELECT COUNT(*) AS n FROM assigned_assessments WHERE test_taker_id = ? AND completed_at IS NULL', tt.id)!.n;
    let notified: string | null = null;
    if (open === 0) {
      const inv = store.get<InvitationRow>('SELECT * FROM invitations WHERE id = ?', tt.invitation_id)!;
      const inviter = inv.invited_by_user_id === null ? undefined : store.get<UserRow>('SELECT * FROM users WHERE id = ?', inv.invited_by_user_id);
      if (inviter && inviter.notify_on_completion === 1) {
        const link = `${origin}/results/${inv.token}/scorecard`;
        recordOutbox(store, {
          account_id: tt.account_id,
          channel: 'email',
          kind: 'completion',
          recipient: inviter.email,
          subject: `${tt.first_name} ${tt.last_name} has completed all assigned assessments`,
          body: `${tt.first_name} ${tt.last_name} (${tt.email}) has completed every assessment assigned on invitation ${inv.id}. Scorecard: ${link}`,
          template_id: null,
          invitation_id: inv.id,
          test_taker_id: tt.id,
        });
        notified = inviter.email;
      }
    }
    return { testTakerId: tt.id, completed: done, careerNavigationProfileId: profileId, allComplete: open === 0, notifiedInviter: notified };
  });
}

/**
 * Seed → rows. seed.ts (loadSeed over src/stub/seed.json, planInvitations)
 * decides what exists; this writes it with prepared statements in the caller's
 * transaction. Loaded lazily: serving an already seeded store needs none of it
 * (nor zod, which seed.ts uses to validate the fixture).
 */
import { TEST_ID, scoreProfileByShortName } from './catalog-content.js';
import { type InvitationState, type PlannedInvitation, type Seed, type SeedAccount, loadSeed, planEach } from './seed.js';
import { indexFrom } from './search-index.js';
import { newProfileId, newToken } from './ids.js';
import type { Store } from './store.js';

export type StateCounts = Record<InvitationState, number>;

let cached: Seed | undefined;
function seed(): Seed {
  cached ??= loadSeed();
  return cached;
}

/** Writes the whole seed: accounts, keys, configuration, then the planned invitations. Call inside store.write. */
export function writeSeed(store: Store): void {
  const s = seed();
  const db = store.db;
  const acc = db.prepare('INSERT INTO accounts (id, display_name, webhook_endpoint, webhook_test_endpoint, webhooks_enabled) VALUES (?, ?, ?, NULL, ?)');
  const key = db.prepare('INSERT INTO api_keys (key, account_id, mode) VALUES (?, ?, ?)');
  const sp = db.prepare('INSERT OR IGNORE INTO account_score_profiles (account_id, score_profile_id) VALUES (?, ?)');
  const team = db.prepare('INSERT INTO teams (id, account_id, display_name, webhooks_enabled) VALUES (?, ?, ?, ?)');
  const tpl = db.prepare('INSERT INTO templates (id, account_id, display_name, template_type) VALUES (?, ?, ?, ?)');
  const tplTeam = db.prepare('INSERT OR IGNORE INTO template_teams (template_id, team_id) VALUES (?, ?)');
  const user = db.prepare(
    `INSERT INTO users (id, account_id, first_name, last_name, email, email_lc, default_team_id, default_test_ids,
      default_invitation_template_id, default_congrats_template_id, default_scheduling_link, send_congrats_notification, notify_on_completion)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const userTeam = db.prepare('INSERT OR IGNORE INTO user_teams (user_id, team_id) VALUES (?, ?)');
  let nextIndex = 0;
  for (const a of s.accounts) {
    acc.run(a.id, a.display_name, a.webhook_endpoint, a.webhooks_enabled ? 1 : 0);
    key.run(a.live_key, a.id, 'live');
    key.run(a.test_key, a.id, 'test');
    for (const name of a.score_profiles) {
      const p = scoreProfileByShortName(name);
      if (p) sp.run(a.id, p.id);
    }
    for (const t of a.teams) team.run(t.id, a.id, t.display_name, t.webhooks_enabled ? 1 : 0);
    for (const t of a.email_templates) {
      tpl.run(t.id, a.id, t.display_name, t.template_type);
      for (const tid of t.team_ids) tplTeam.run(t.id, tid);
    }
    for (const u of a.users) {
      user.run(
        u.id, a.id, u.first_name, u.last_name, u.email, u.email.toLowerCase(), u.default_team_id, JSON.stringify(u.default_assessments),
        u.default_invitation_email_template_id, u.default_congrats_email_template_id, u.default_scheduling_link,
        u.default_congrats_email_template_id !== null ? 1 : 0, u.notify_on_completion ? 1 : 0,
      );
      for (const tid of u.team_ids) userTeam.run(u.id, tid);
    }
    const planned = insertPlanned(store, planEach(a));
    nextIndex = Math.max(nextIndex, a.people.start_index + planned.invitations);
  }
  // `stub seed` draws people after every seeded range, so no email repeats.
  store.setMeta('people_next_index', String(nextIndex));
}

/** Inserts planned invitations (and test takers, completions, profiles) in order. Call inside store.write. */
export interface SeedPeopleResult {
  invitations: number;
  testTakers: number;
  completed: number;
  firstId: number | null;
}

export function insertPlanned(store: Store, planned: Iterable<PlannedInvitation>): SeedPeopleResult {
  const db = store.db;
  const insInv = db.prepare(
    `INSERT INTO invitations (account_id, team_id, invited_by_user_id, created_at, accepted_at, first_name, last_name, email, email_lc,
      send_via_email, phone, send_via_sms, custom_id, person_id, invitation_template_id, ref_text, congrats_template_id,
      send_congrats_notification, target_score_profile_id, token, test_taker_id)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, NULL, ?, ?, ?, ?, NULL)`,
  );
  const insInvA = db.prepare('INSERT INTO invitation_assessments (invitation_id, test_id, position) VALUES (?, ?, ?)');
  const insTT = db.prepare(
    `INSERT INTO test_takers (account_id, team_id, invitation_id, created_at, first_name, last_name, email, email_lc, phone, custom_id, person_id)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const setTT = db.prepare('UPDATE invitations SET test_taker_id = ? WHERE id = ?');
  const insAA = db.prepare('INSERT INTO assigned_assessments (test_taker_id, test_id, position, completed_at, language) VALUES (?, ?, ?, ?, ?)');
  const insCnp = db.prepare('INSERT INTO career_navigation_profiles (id, account_id, test_taker_id, created_at, seq) VALUES (?, ?, ?, ?, ?)');
  let cnpSeq = Number(store.meta('cnp_seq') ?? '0');
  let testTakers = 0;
  let completed = 0;
  let firstId: number | null = null;
  let firstTT: number | null = null;
  let invitations = 0;
  for (const p of planned) {
    invitations++;
    const person = p.person;
    const emailLc = person.email.toLowerCase();
    const target = p.target_score_profile ? (scoreProfileByShortName(p.target_score_profile)?.id ?? null) : null;
    const r = insInv.run(
      p.account_id, p.team_id, p.inviter_user_id, p.created_at, p.accepted_at, person.first_name, person.last_name, person.email, emailLc,
      p.send_via_email ? 1 : 0, person.phone, p.send_via_sms ? 1 : 0, person.custom_id, person.person_id, p.invitation_email_template_id,
      p.congrats_email_template_id, p.send_congrats_notification ? 1 : 0, target, newToken(),
    );
    const invId = Number(r.lastInsertRowid);
    firstId ??= invId;
    p.assessments.forEach((t, pos) => {
      insInvA.run(invId, t, pos);
    });
    if (p.accepted_at === null) continue;
    const tt = insTT.run(p.account_id, p.team_id, invId, p.accepted_at, person.first_name, person.last_name, person.email, emailLc, person.phone, person.custom_id, person.person_id);
    const ttId = Number(tt.lastInsertRowid);
    firstTT ??= ttId;
    setTT.run(ttId, invId);
    testTakers++;
    const done = new Map(p.completed.map((c) => [c.test_id, c]));
    p.assessments.forEach((t, pos) => {
      const c = done.get(t);
      insAA.run(ttId, t, pos, c?.completed_at ?? null, c?.language ?? null);
    });
    if (p.completed.length === p.assessments.length) completed++;
    const interests = done.get(TEST_ID.interests);
    if (interests) insCnp.run(newProfileId(), p.account_id, ttId, interests.completed_at, ++cnpSeq);
  }
  // The filters' index, for the new rows at once (search-index.ts).
  if (firstId !== null) indexFrom(store, 'invitations', firstId);
  if (firstTT !== null) indexFrom(store, 'test_takers', firstTT);
  store.setMeta('cnp_seq', String(cnpSeq));
  return { invitations, testTakers, completed, firstId };
}

export interface SeedPeopleOptions {
  /** Relative weights of pending / accepted / partial / complete (default: the account's seed mix). */
  mix?: Partial<StateCounts>;
  /** Invitations are spread over the last `days` days (default 90). */
  days?: number;
  now?: Date;
}

/**
 * Adds `count` invitations to a team with the seed's own planner (same
 * inviters, assessment mixes and target profiles as the team's seed plan, or
 * the account's first plan). Call inside store.write.
 */
export function seedPeopleRows(store: Store, accountId: number, teamId: number, count: number, opts: SeedPeopleOptions = {}): SeedPeopleResult {
  const account = seed().accounts.find((a) => a.id === accountId);
  if (!account) throw new Error(`Account ${accountId} is not in the seed.`);
  if (!account.teams.some((t) => t.id === teamId)) throw new Error(`Team ${teamId} is not in account ${accountId}.`);
  const basePlan = account.people.teams.find((t) => t.team_id === teamId) ?? account.people.teams[0];
  const inviters = account.users.filter((u) => u.team_ids.includes(teamId) && u.default_assessments.length > 0).map((u) => u.id);
  const fallbackInviter = account.users.find((u) => u.team_ids.includes(teamId))?.id ?? account.users[0].id;
  const start = Number(store.meta('people_next_index') ?? '0');
  store.setMeta('people_next_index', String(start + count));
  const now = (opts.now ?? new Date()).getTime();
  const days = opts.days ?? 90;
  const synthetic: SeedAccount = {
    ...account,
    people: {
      ...account.people,
      start_index: start,
      created_from: new Date(now - days * 86_400_000).toISOString(),
      created_to: new Date(now).toISOString(),
      teams: [
        {
          team_id: teamId,
          invitations: count,
          inviter_user_ids: inviters.length > 0 ? inviters : [fallbackInviter],
          target_score_profiles: basePlan?.target_score_profiles ?? [null],
          assessment_mix: basePlan?.assessment_mix ?? [{ test_ids: [6, 7, 8], weight: 1 }],
        },
      ],
      state_mix: { ...account.people.state_mix, ...(opts.mix ?? {}) },
    },
  };
  return insertPlanned(store, planEach(synthetic));
}

/** The seeded accounts' keys, straight from the fixture (no store needed). */
export function seedKeys(): Array<{ account_id: number; display_name: string; live_key: string; test_key: string }> {
  return seed().accounts.map((a) => ({ account_id: a.id, display_name: a.display_name, live_key: a.live_key, test_key: a.test_key }));
}

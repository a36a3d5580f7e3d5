// The stub's seed: a declarative description in src/stub/seed.json of the
// accounts, keys, teams, users, templates and enabled score profiles, plus a
// plan of how many invitations each team gets and in which states. loadSeed()
// validates it (shape with zod, then cross-references); planInvitations()
// expands the plan into concrete, deterministic invitations for the store.

import { existsSync, readFileSync } from 'node:fs';
import { assetText } from '../core/standalone.js';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as z from 'zod';
import { ASSESSMENTS, TEST_ID, scoreProfileByShortName } from './catalog-content.js';
import { type GeneratedPerson, personAt } from './people.js';
import { hashString, mulberry32 } from './random.js';

// ------------------------------------------------------------------ schema

const id = z.number().int().positive();
const isoTime = z.iso.datetime();
const testId = z.number().int().refine((n) => ASSESSMENTS.some((a) => a.id === n), 'unknown test_id');

export const SeedTeam = z.strictObject({
  id,
  display_name: z.string().min(1),
  /** Per-team webhook delivery, managed by the operator; new teams default to off. */
  webhooks_enabled: z.boolean(),
});

export const SeedEmailTemplate = z.strictObject({
  id,
  display_name: z.string().min(1),
  template_type: z.enum(['invitation', 'congrats']),
  team_ids: z.array(id),
});

export const SeedUser = z.strictObject({
  id,
  first_name: z.string().min(1),
  last_name: z.string().min(1),
  email: z.string().email(),
  team_ids: z.array(id),
  default_team_id: id.nullable(),
  default_assessments: z.array(testId),
  default_invitation_email_template_id: id.nullable(),
  default_congrats_email_template_id: id.nullable(),
  default_scheduling_link: z.string().url().nullable(),
  /** Email the inviter when a test taker completes every assigned assessment. */
  notify_on_completion: z.boolean(),
});

export const SeedTeamPlan = z.strictObject({
  team_id: id,
  invitations: z.number().int().min(0),
  /** Inviters drawn in turn; each must belong to the team. */
  inviter_user_ids: z.array(id).min(1),
  /** Drawn uniformly per invitation; null entries give invitations without a target profile. */
  target_score_profiles: z.array(z.string().nullable()).min(1),
  assessment_mix: z.array(z.strictObject({ test_ids: z.array(testId).min(1), weight: z.number().positive() })).min(1),
});

export const StateMix = z.strictObject({
  /** Not accepted yet. */
  pending: z.number().min(0),
  /** Accepted, nothing completed. */
  accepted: z.number().min(0),
  /** Accepted, some but not all assigned assessments completed. */
  partial: z.number().min(0),
  /** Every assigned assessment completed. */
  complete: z.number().min(0),
});

export const SeedPeople = z.strictObject({
  /** Seed of generatePeople for this account. */
  seed: z.string().min(1),
  /** First generator index; accounts use disjoint ranges so emails never repeat across the service. */
  start_index: z.number().int().min(0),
  created_from: isoTime,
  created_to: isoTime,
  /** Drawn per test taker for assigned_assessments[].language. */
  languages: z.array(z.string().min(2)).min(1),
  /** Share of invitations with a phone that are also sent by SMS. */
  sms_rate: z.number().min(0).max(1),
  teams: z.array(SeedTeamPlan),
  /** Relative weights of the invitation states. */
  state_mix: StateMix,
});

export const SeedAccount = z.strictObject({
  id,
  display_name: z.string().min(1),
  live_key: z.string().regex(/^sk_live_[0-9a-f]{32}$/),
  test_key: z.string().regex(/^sk_test_[0-9a-f]{32}$/),
  webhook_endpoint: z.string().url().nullable(),
  webhooks_enabled: z.boolean(),
  /** short_names of the system score profiles enabled for the account. */
  score_profiles: z.array(z.string()),
  teams: z.array(SeedTeam).min(1),
  email_templates: z.array(SeedEmailTemplate),
  users: z.array(SeedUser).min(1),
  people: SeedPeople,
});

export const Seed = z.strictObject({
  version: z.literal(1),
  accounts: z.array(SeedAccount).min(1),
});

export type Seed = z.infer<typeof Seed>;
export type SeedAccount = z.infer<typeof SeedAccount>;
export type SeedTeam = z.infer<typeof SeedTeam>;
export type SeedUser = z.infer<typeof SeedUser>;
export type SeedEmailTemplate = z.infer<typeof SeedEmailTemplate>;
export type SeedPeople = z.infer<typeof SeedPeople>;
export type SeedTeamPlan = z.infer<typeof SeedTeamPlan>;
export type InvitationState = keyof z.infer<typeof StateMix>;

// ----------------------------------------------------------------- location

/**
 * The stub's seed as a file: `stub/seed.json` beside the stub's code, the
 * nearest above this module: src/stub/seed.json from the sources, and
 * dist/stub/seed.json (copied there by scripts/build.mjs) from dist/,
 * dist/chunks/ and dist/lib/ alike, in the repository or an installed
 * package. The standalone executable reads its asset `stub/seed.json` instead.
 */
export function seedFile(from: string = dirname(fileURLToPath(import.meta.url))): string {
  let dir = from;
  for (;;) {
    const file = join(dir, 'stub', 'seed.json');
    if (existsSync(file)) return file;
    const parent = dirname(dir);
    if (parent === dir) throw new Error('Cannot find the stub\'s seed of jobfit (stub/seed.json beside its code).');
    dir = parent;
  }
}

// ------------------------------------------------------------------ loading

/** Cross-reference problems of a shape-valid seed, one sentence each; empty when consistent. */
export function seedProblems(seed: Seed): string[] {
  const problems: string[] = [];
  const dup = (what: string, values: (string | number)[]) => {
    const seen = new Set<string | number>();
    for (const v of values) {
      if (seen.has(v)) problems.push(`Duplicate ${what}: ${v}.`);
      seen.add(v);
    }
  };
  const accounts = seed.accounts;
  dup('account id', accounts.map((a) => a.id));
  dup('API key', accounts.flatMap((a) => [a.live_key, a.test_key]));
  dup('team id', accounts.flatMap((a) => a.teams.map((t) => t.id)));
  dup('user id', accounts.flatMap((a) => a.users.map((u) => u.id)));
  dup('user email', accounts.flatMap((a) => a.users.map((u) => u.email.toLowerCase())));
  dup('email template id', accounts.flatMap((a) => a.email_templates.map((t) => t.id)));

  for (const a of accounts) {
    const where = `account ${a.id}`;
    const teams = new Set(a.teams.map((t) => t.id));
    const templates = new Map(a.email_templates.map((t) => [t.id, t]));
    const users = new Map(a.users.map((u) => [u.id, u]));
    for (const sp of a.score_profiles) {
      if (!scoreProfileByShortName(sp)) problems.push(`${where}: unknown score profile ${sp}.`);
    }
    for (const t of a.email_templates) {
      for (const tid of t.team_ids) {
        if (!teams.has(tid)) problems.push(`${where}: template ${t.id} is assigned to unknown team ${tid}.`);
      }
    }
    for (const u of a.users) {
      for (const tid of u.team_ids) if (!teams.has(tid)) problems.push(`${where}: user ${u.id} is in unknown team ${tid}.`);
      if (u.default_team_id !== null && !u.team_ids.includes(u.default_team_id)) {
        problems.push(`${where}: user ${u.id} has default team ${u.default_team_id} outside their teams.`);
      }
      if (u.default_assessments.includes(TEST_ID.prescreen) && u.default_assessments.length > 1) {
        problems.push(`${where}: user ${u.id} combines Prescreen with other default assessments.`);
      }
      const checkTemplate = (tid: number | null, kind: 'invitation' | 'congrats') => {
        if (tid === null) return;
        const t = templates.get(tid);
        if (!t) problems.push(`${where}: user ${u.id} has unknown default ${kind} template ${tid}.`);
        else if (t.template_type !== kind) problems.push(`${where}: user ${u.id} default template ${tid} is not a ${kind} template.`);
        else if (u.default_team_id !== null && !t.team_ids.includes(u.default_team_id)) {
          problems.push(`${where}: user ${u.id} default template ${tid} is not assigned to their default team.`);
        }
      };
      checkTemplate(u.default_invitation_email_template_id, 'invitation');
      checkTemplate(u.default_congrats_email_template_id, 'congrats');
    }
    const p = a.people;
    if (Date.parse(p.created_from) >= Date.parse(p.created_to)) problems.push(`${where}: people.created_from is not before created_to.`);
    for (const plan of p.teams) {
      if (!teams.has(plan.team_id)) problems.push(`${where}: people plan for unknown team ${plan.team_id}.`);
      for (const uid of plan.inviter_user_ids) {
        const u = users.get(uid);
        if (!u) problems.push(`${where}: people plan names unknown inviter ${uid}.`);
        else if (!u.team_ids.includes(plan.team_id)) problems.push(`${where}: inviter ${uid} is not in team ${plan.team_id}.`);
      }
      for (const sp of plan.target_score_profiles) {
        if (sp !== null && !a.score_profiles.includes(sp)) {
          problems.push(`${where}: team ${plan.team_id} targets score profile ${sp}, which the account has not enabled.`);
        }
      }
      for (const mix of plan.assessment_mix) {
        if (mix.test_ids.includes(TEST_ID.prescreen) && mix.test_ids.length > 1) {
          problems.push(`${where}: team ${plan.team_id} combines Prescreen with other assessments.`);
        }
      }
      if (!a.email_templates.some((t) => t.template_type === 'invitation' && t.team_ids.includes(plan.team_id))) {
        problems.push(`${where}: team ${plan.team_id} has invitations planned but no invitation template.`);
      }
    }
  }
  // Generator index ranges must not overlap, so no email repeats across the service.
  const ranges = accounts
    .map((a) => [a.people.start_index, a.people.start_index + a.people.teams.reduce((n, t) => n + t.invitations, 0)])
    .sort((x, y) => x[0] - y[0]);
  for (let i = 1; i < ranges.length; i++) {
    if (ranges[i][0] < ranges[i - 1][1]) problems.push('people.start_index ranges of two accounts overlap.');
  }
  return problems;
}

/** Parses and checks a seed object; throws one clear sentence on the first problem. */
export function parseSeed(data: unknown): Seed {
  const r = Seed.safeParse(data);
  if (!r.success) {
    const issue = r.error.issues[0];
    throw new Error(`Invalid seed at ${issue.path.join('.') || '(root)'}: ${issue.message}.`);
  }
  const problems = seedProblems(r.data);
  if (problems.length > 0) throw new Error(`Invalid seed: ${problems[0]}`);
  return r.data;
}

/** Loads the stub's seed (seedFile, or the standalone executable's asset `stub/seed.json`) or the given file, and validates it. */
export function loadSeed(file?: string): Seed {
  const text = file === undefined ? assetText('stub/seed.json') : undefined;
  return parseSeed(JSON.parse(text ?? readFileSync(file ?? seedFile(), 'utf8')));
}

// ---------------------------------------------------------------- expansion

export interface PlannedCompletion {
  test_id: number;
  completed_at: string;
  language: string;
}

/** One seeded invitation, ready to become rows; every value is decided here. */
export interface PlannedInvitation {
  account_id: number;
  team_id: number;
  inviter_user_id: number;
  /** Generator index; unique across the service. */
  person_index: number;
  person: GeneratedPerson;
  send_via_email: boolean;
  send_via_sms: boolean;
  invitation_email_template_id: number | null;
  congrats_email_template_id: number | null;
  send_congrats_notification: boolean;
  target_score_profile: string | null;
  assessments: number[];
  created_at: string;
  state: InvitationState;
  /** Null while pending. */
  accepted_at: string | null;
  /** Assessments completed so far, in completion order; empty unless partial or complete. */
  completed: PlannedCompletion[];
}

function pickWeighted<T>(rng: () => number, items: T[], weight: (t: T) => number): T {
  const total = items.reduce((n, t) => n + weight(t), 0);
  let x = rng() * total;
  for (const t of items) {
    x -= weight(t);
    if (x < 0) return t;
  }
  return items[items.length - 1];
}

const HOUR = 3_600_000;

/**
 * The account's seeded invitations in creation order (oldest first), so that
 * inserting them in order makes ids grow with created_at. Deterministic: the
 * same seed always yields the same invitations.
 */
export function planInvitations(account: SeedAccount): PlannedInvitation[] {
  return [...planEach(account)];
}

/**
 * The planned invitations one at a time, in plan order (the same as
 * planInvitations): a seed of 100,000 people writes each as it is planned
 * instead of holding them all.
 */
export function* planEach(account: SeedAccount): Generator<PlannedInvitation> {
  const p = account.people;
  const rng = mulberry32(hashString(`plan:${p.seed}`));
  const seedHash = hashString(p.seed);
  const users = new Map(account.users.map((u) => [u.id, u]));

  // Interleave the teams: a shuffled list of team slots.
  const slots: SeedTeamPlan[] = p.teams.flatMap((t) => Array.from({ length: t.invitations }, () => t));
  for (let i = slots.length - 1; i > 0; i--) {
    const j = Math.floor(rng() * (i + 1));
    [slots[i], slots[j]] = [slots[j], slots[i]];
  }
  const from = Date.parse(p.created_from);
  const end = Date.parse(p.created_to);
  const span = end - from;
  const states = Object.entries(p.state_mix) as [InvitationState, number][];
  const teamCounters = new Map<number, number>();

  for (let i = 0; i < slots.length; i++) {
    const plan = slots[i];
    const person_index = p.start_index + i;
    const person = personAt(person_index, seedHash);
    const n = teamCounters.get(plan.team_id) ?? 0;
    teamCounters.set(plan.team_id, n + 1);
    const inviter = users.get(plan.inviter_user_ids[n % plan.inviter_user_ids.length])!;
    const invitationTemplate =
      inviter.default_invitation_email_template_id ??
      account.email_templates.find((t) => t.template_type === 'invitation' && t.team_ids.includes(plan.team_id))?.id ??
      null;
    const assessments = [...pickWeighted(rng, plan.assessment_mix, (m) => m.weight).test_ids];
    let state = pickWeighted(rng, states, ([, w]) => w)[0];
    // One assessment cannot be partly done.
    if (state === 'partial' && assessments.length < 2) state = 'accepted';

    // Even spacing keeps creation order equal to plan order; jitter inside the slot looks natural.
    const createdMs = Math.round(from + (span * (i + 0.2 + rng() * 0.6)) / slots.length);
    // Offsets after creation: acceptance, then each completion. They are
    // squeezed so that nothing happens after the seed's own end (created_to,
    // which is "now" for a generated seed): the stub never writes a future time.
    const acceptedOffset = state === 'pending' ? null : Math.round((1 + rng() * 70) * HOUR);
    const completionOffsets: Array<{ test_id: number; offset: number; language: string }> = [];
    if (acceptedOffset !== null && (state === 'partial' || state === 'complete')) {
      const order = [...assessments];
      for (let k = order.length - 1; k > 0; k--) {
        const j = Math.floor(rng() * (k + 1));
        [order[k], order[j]] = [order[j], order[k]];
      }
      const howMany = state === 'complete' ? order.length : 1 + Math.floor(rng() * (order.length - 1));
      const language = p.languages[Math.floor(rng() * p.languages.length)];
      let t = acceptedOffset;
      for (const test_id of order.slice(0, howMany)) {
        t += Math.round((12 + rng() * 50) * 60_000);
        completionOffsets.push({ test_id, offset: t, language });
      }
    }
    const lastOffset = completionOffsets.at(-1)?.offset ?? acceptedOffset ?? 0;
    const room = Math.max(0, end - createdMs);
    const squeeze = lastOffset > room ? room / lastOffset : 1;
    const acceptedMs = acceptedOffset === null ? null : createdMs + Math.floor(acceptedOffset * squeeze);
    const completed: PlannedCompletion[] = completionOffsets.map((c) => ({
      test_id: c.test_id,
      completed_at: new Date(createdMs + Math.floor(c.offset * squeeze)).toISOString(),
      language: c.language,
    }));
    yield {
      account_id: account.id,
      team_id: plan.team_id,
      inviter_user_id: inviter.id,
      person_index,
      person,
      send_via_email: true,
      send_via_sms: person.phone !== null && rng() < p.sms_rate,
      invitation_email_template_id: invitationTemplate,
      congrats_email_template_id: inviter.default_congrats_email_template_id,
      send_congrats_notification: inviter.default_congrats_email_template_id !== null,
      target_score_profile: plan.target_score_profiles[Math.floor(rng() * plan.target_score_profiles.length)],
      assessments,
      created_at: new Date(createdMs).toISOString(),
      state,
      accepted_at: acceptedMs === null ? null : new Date(acceptedMs).toISOString(),
      completed,
    };
  }
}

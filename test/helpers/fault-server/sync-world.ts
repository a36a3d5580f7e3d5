/**
 * The sync world of test/helpers/fault-server.ts (`startFaultServer({ world:
 * 'sync', people })`): a server of the API for the sync tests that is not our
 * stub: written from /work/shared/api-v2.md alone, only the routes a sync
 * reads, with switches for the faults the sync must survive:
 *
 * - `stringIds`: every id (invitation, test taker, team, user, assessment,
 *   profile references) is sent as a numeric string ("50001"), as some
 *   servers do;
 * - `remove(invitationId)`: the service no longer has a person (the
 *   invitation and its test taker are gone from every list and route);
 * - `overstate[list]`: that list's total_count says this many more than
 *   there are (`test-takers`, `teams`, `users`, `invitations`);
 * - `uncounted`: those lists answer without a total_count (`test-takers`,
 *   `teams`, `users`);
 * - `accept(invitationId)`, with `afterList` or `beforeList`: a person
 *   accepts while a sync runs (after the invitation list was read, say);
 *   `remove` with them: a person is deleted between two reads;
 * - `hidden`: the invitation list (items and total_count) leaves these
 *   invitations out, every other route still has them: a server whose list
 *   silently drops people;
 * - `invite()`: a new pending person, created now (while a sync runs, say);
 * - `omit`: fields left out of the objects (`test_taker.invitation_id`,
 *   `invitation.created_at`), and `noDate`: answers without a Date header,
 *   as a server may send less than the reference states.
 *
 * The test-taker list is newest first by acceptance (the seeded people
 * accepted in invitation order, those who `accept` later are newer), so
 * more than 50 accepting at once push older test takers out of its 50.
 *
 * Test taker list items carry only what the reference states (`id`,
 * `custom_id`, `person_id`, `team`, `account`), as a strict server does.
 *
 * People (people.ts, the lists world's model too): invitation 50001 + i;
 * the accepted ones have test taker 70001 + i.
 * Every third person is pending, every third has completed Personality only,
 * the rest completed Personality and Career Interests (job-fit report and a
 * career navigation profile).
 */
import { type IncomingMessage, type ServerResponse, createServer } from 'node:http';
import type { Inv } from './lists-types.js';
import { listenLoopback } from './listen.js';
import { FIRST_INVITATION, people } from './people.js';

export const SYNC_FAULT_KEY = 'sk_live_syncfaults_0123456789ab';

export interface SyncFaultServer {
  url: string;
  /** JOBFIT_BASE_URL and JOBFIT_API_KEY for runCli. */
  env: Record<string, string>;
  /** Switches: see the file comment. */
  faults: { stringIds: boolean; overstate: Partial<Record<ListName, number>>; uncounted: ListName[]; hidden: number[]; omit: Omitted[]; noDate: boolean };
  /** Called after each list answer is sent, with the list's path ("invitations"). */
  afterList?: (list: string) => void;
  /** Called when a list request arrives, before it is answered, with the list's path ("test-takers"). */
  beforeList?: (list: string) => void;
  /** The person of this invitation is gone from the service. */
  remove(invitationId: number): void;
  /** The (pending) person of this invitation accepts: test taker 70001 + i, nothing completed yet. */
  accept(invitationId: number): void;
  /** A new pending person, invited now; returns the invitation's id. */
  invite(): number;
  /** Invitation ids and test taker ids the service has now. */
  truth(): { invitations: number[]; testTakers: number[] };
  close(): Promise<void>;
}

type ListName = 'test-takers' | 'teams' | 'users' | 'invitations';
type Omitted = 'test_taker.invitation_id' | 'invitation.created_at';

const TEAMS = [
  { id: 11, display_name: 'North' },
  { id: 12, display_name: 'South' },
];
const ASSESSMENT = {
  6: { id: 6, display_name: 'Personality Traits', short_name: 'Personality' },
  8: { id: 8, display_name: 'Career Interests', short_name: 'Interests' },
} as const;
const ACCOUNT = { id: 900, display_name: 'Fault Co' };
const USER = { id: 31, first_name: 'Ida', last_name: 'Inviter', email: 'ida@faultco.example' };
const CREATED = Date.parse('2026-11-02T09:00:00Z');

export async function startSyncWorld(count: number): Promise<SyncFaultServer> {
  const faults: SyncFaultServer['faults'] = { stringIds: false, overstate: {}, uncounted: [], hidden: [], omit: [], noDate: false };
  // The people (people.ts), the lists world's model: test taker 70001 + i for invitation 50001 + i.
  const folk = people({ firstTaker: 70001 });
  /** Person i: invitation 50001 + i. */
  const ix = (p: Inv) => p.id - FIRST_INVITATION;
  const at = (i: number, hours: number) => new Date(CREATED + i * 60_000 + hours * 3_600_000).toISOString();
  /** A person invited now or seeded (`seeded`: created CREATED + i minutes). */
  const add = (i: number, seeded: boolean) =>
    folk.create({ email: `person${i}@faultco.example`, first: 'Person', last: `No${i}`, team: TEAMS[i % 2].id, custom_id: `grp-${i % 4}`, created_at: seeded ? at(i, 0) : new Date().toISOString() });
  // The next person invite() makes: after the seeded ones, never an id the server had.
  let invited = count;
  for (let i = 0; i < count; i++) {
    const p = add(i, true);
    if (i % 3 === 0) continue;
    folk.accept(p.id, i % 3 === 2, { takerId: 70001 + i, at: at(i, 1) });
    p.personality_only = i % 3 === 1;
  }
  const completedOf = (p: Inv): number[] => (p.completed ? [6, 8] : p.personality_only ? [6] : []);
  const byInvitation = (invitationId: number) => folk.invitations.find((p) => p.id === invitationId);
  const profileOf = (key: string) => {
    const p = /^cnp_(\d+)$/.test(key) ? byInvitation(FIRST_INVITATION + Number(key.slice(4))) : undefined;
    return p && completedOf(p).includes(8) ? p : undefined;
  };
  // Ids as the switch says: numbers, or numeric strings.
  const id = (n: number) => (faults.stringIds ? String(n) : n);
  const teamOf = (p: Inv) => TEAMS.find((t) => t.id === p.team_id) ?? TEAMS[0];
  const team = (t: (typeof TEAMS)[number]) => ({ id: id(t.id), display_name: t.display_name });
  const profileId = (p: Inv) => (completedOf(p).includes(8) ? `cnp_${ix(p)}` : null);

  const listItem = (p: Inv) => ({
    object: 'invitation_list_item',
    id: id(p.id),
    first_name: p.first_name,
    last_name: p.last_name,
    email: p.email,
    created_at: p.created_at,
    accepted_at: p.accepted_at,
    assessment_url: `https://assess.example/a/${ix(p)}`,
    test_taker_id: p.test_taker_id === null ? null : id(p.test_taker_id),
    custom_id: p.custom_id,
    person_id: `P${ix(p)}`,
    team: team(teamOf(p)),
    account: { id: id(ACCOUNT.id), display_name: ACCOUNT.display_name },
  });
  /** An object without the fields `omit` leaves out of `kind`. */
  const without = (kind: 'test_taker' | 'invitation', o: Record<string, unknown>) => {
    for (const f of faults.omit) if (f.startsWith(`${kind}.`)) delete o[f.slice(kind.length + 1)];
    return o;
  };
  const invitation = (p: Inv): Record<string, unknown> => ({
    ...listItem(p),
    mode: 'live',
    object: 'invitation',
    invited_by_user: { ...USER, id: id(USER.id) },
    send_via_email: true,
    phone: null,
    send_via_sms: false,
    invitation_email_template: null,
    ref_text: null,
    congrats_email_template: null,
    send_congrats_notification: ix(p) % 2 === 0,
    target_score_profile: null,
    invitation_assessments: [ASSESSMENT[6], ASSESSMENT[8]].map((a) => ({ ...a, id: id(a.id) })),
    career_navigation_url: profileId(p) ? `https://career.example/${ix(p)}` : null,
    scorecard_url: p.test_taker_id === null ? null : `https://results.example/s/${ix(p)}`,
    job_fit_summary_url: null,
    career_options_spotlight_url: null,
    career_navigation_profile_id: profileId(p),
  });
  const testTaker = (p: Inv): Record<string, unknown> => ({
    mode: 'live',
    object: 'test_taker',
    id: id(p.test_taker_id!),
    person_id: `P${ix(p)}`,
    custom_id: `grp-${ix(p) % 4}`,
    invitation_id: id(p.id),
    phone: null,
    assigned_assessments: [6, 8].map((a, k) => ({
      id: id(p.test_taker_id! * 10 + k),
      completed_at: completedOf(p).includes(a) ? at(ix(p), 2 + k) : null,
      language: completedOf(p).includes(a) ? 'en' : null,
      assessment: { ...ASSESSMENT[a as 6 | 8], id: id(a) },
    })),
    scorecard_url: `https://results.example/s/${ix(p)}`,
    job_fit_summary_url: null,
    career_navigation_url: profileId(p) ? `https://career.example/${ix(p)}` : null,
    career_navigation_profile_id: profileId(p),
  });
  const score = (short: string, value: number) => ({ object: 'score', id: id(value), display_name: short, short_name: short, description: '', is_starred: false, yellow_band: 50, test_taker_score: value });
  const scorecard = (p: Inv, sp: string) => ({
    mode: 'live',
    object: 'scorecard',
    test_taker_id: id(p.test_taker_id!),
    invitation_id: id(p.id),
    custom_id: `grp-${ix(p) % 4}`,
    person_id: `P${ix(p)}`,
    career_navigation_profile_id: profileId(p),
    first_name: 'Person',
    last_name: `No${ix(p)}`,
    email: p.email,
    phone: null,
    fitscore_raw: 0.5 + (ix(p) % 7) / 1000,
    five_star_score: 1 + (ix(p) % 5),
    job_fit_percentage: 40 + (ix(p) % 50) + 0.5,
    scorecard_url: `https://results.example/s/${ix(p)}`,
    score_profile: { id: id(3), display_name: 'Sales Rep', short_name: sp, riasec_profile: 'ESC' },
    riasec_profile: 'ESC',
    scores: {
      thinking_skills: null,
      personality_traits: [score('agree', 40 + (ix(p) % 9))],
      career_interests: completedOf(p).includes(8) ? [score('ci-ent', 3)] : null,
      skill_survey_reference: null,
      structured_interview: null,
    },
  });
  const jobFit = (p: Inv) => ({
    mode: 'live',
    object: 'job_fit_report',
    test_taker_id: id(p.test_taker_id!),
    invitation_id: id(p.id),
    riasec_profile: 'ESC',
    team: team(teamOf(p)),
    top_fit_occupations: Array.from({ length: 15 }, (_, k) => ({
      object: 'job_family_job_fit',
      job_family_number: `JF-${100 + k}`,
      job_family_name: `Family ${k} (Zone ${1 + (k % 5)})`,
      job_family_job_zone: 1 + (k % 5),
      job_fit_percentage: 90 - k * 2.5,
      job_fit_star_rating: 5 - Math.floor(k / 3),
      rank: k + 1,
    })),
  });
  const profile = (p: Inv) => ({
    mode: 'live',
    object: 'career_navigation_profile',
    id: profileId(p),
    person_id: `P${ix(p)}`,
    test_taker_id: id(p.test_taker_id!),
    career_navigation_url: `https://career.example/${ix(p)}`,
    exercises: { strengthsCareerInterests: 'people', targetJobName: 'Sales' },
    plan_job_1: { jobName: 'Account Manager', onetCode: '41-3091.00' },
  });

  const send = (res: ServerResponse, status: number, body: unknown) => {
    res.sendDate = !faults.noDate;
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };
  const list = (items: unknown[], total: number) => ({ mode: 'live', object: 'list', total_count: total, has_more: total > items.length, data: items });
  /** A list answer, its total_count overstated or left out as the switches say; then afterList. */
  const sendList = (res: ServerResponse, name: ListName, items: unknown[], total: number) => {
    const { total_count, ...uncounted } = list(items, total + (faults.overstate[name] ?? 0));
    send(res, 200, faults.uncounted.includes(name) ? uncounted : { total_count, ...uncounted });
    server.afterList?.(name);
  };
  /** Filters per the reference: team_id exact, custom_id and email partial and case-insensitive; newest first (`newer`); 50 items, 150 filtered. */
  const listed = (of: Inv[], q: URLSearchParams, item: (p: Inv) => unknown, newer: (a: Inv, b: Inv) => number) => {
    const teamId = q.get('team_id');
    const customId = q.get('custom_id')?.toLowerCase();
    const email = q.get('email')?.toLowerCase();
    const matches = of
      .filter((p) => (teamId === null || String(p.team_id) === teamId) && (!customId || `grp-${ix(p) % 4}`.includes(customId)) && (!email || p.email.includes(email)))
      .sort(newer);
    return { items: matches.slice(0, customId || email ? 150 : 50).map(item), total: matches.length };
  };
  const takerListItem = (p: Inv) => ({ id: id(p.test_taker_id!), custom_id: `grp-${ix(p) % 4}`, person_id: `P${ix(p)}`, team: team(teamOf(p)), account: { id: id(ACCOUNT.id), display_name: ACCOUNT.display_name } });

  function handle(req: IncomingMessage, res: ServerResponse) {
    const u = new URL(req.url ?? '/', 'http://x');
    if (u.pathname === '/healthcheck') return send(res, 200, { status: 'ok', timestamp: new Date().toISOString(), version: 'v2' });
    if (req.headers.authorization !== `Bearer ${SYNC_FAULT_KEY}`) return send(res, 404, { error: 'API key is required' });
    if (req.method !== 'GET') return send(res, 400, { error: 'not supported by this server' });
    const parts = u.pathname.split('/').filter(Boolean);
    const num = (s: string | undefined) => (s && /^\d+$/.test(s) ? Number(s) : NaN);
    switch (parts[0]) {
      case 'accounts':
        return send(res, 200, { mode: 'live', object: 'account', id: id(ACCOUNT.id), display_name: ACCOUNT.display_name, webhook_endpoint: null, webhooks_enabled: false });
      case 'users':
        return sendList(res, 'users', [{ object: 'user', ...USER, id: id(USER.id), default_team: team(TEAMS[0]) }], 1);
      case 'teams': {
        const teams = TEAMS.map((t) => {
          const of = folk.invitations.filter((p) => p.team_id === t.id);
          return { object: 'team_list_item', ...team(t), users_count: 1, invitations_count: of.length, test_takers_count: of.filter((p) => p.test_taker_id !== null).length };
        });
        return sendList(res, 'teams', teams, teams.length);
      }
      case 'score-profiles':
        return send(res, 200, list([{ object: 'score_profile', id: id(3), display_name: 'Sales Rep', short_name: 'sales-rep', riasec_profile: 'ESC' }], 1));
      case 'invitations': {
        if (parts.length === 1) {
          server.beforeList?.('invitations');
          const { items, total } = listed(folk.invitations.filter((p) => !faults.hidden.includes(p.id)), u.searchParams, listItem, (a, b) => b.id - a.id);
          return sendList(res, 'invitations', items, total);
        }
        const p = byInvitation(num(parts[1]));
        return p ? send(res, 200, without('invitation', invitation(p))) : send(res, 400, { error: 'Invitation not found' });
      }
      case 'test-takers': {
        if (parts.length === 1) {
          server.beforeList?.('test-takers');
          const { items, total } = listed(folk.takers(), u.searchParams, takerListItem, (a, b) => (b.accepted_seq ?? 0) - (a.accepted_seq ?? 0));
          return sendList(res, 'test-takers', items, total);
        }
        const p = folk.byTaker(num(parts[1]));
        if (!p) return send(res, 400, { error: 'Test taker not found' });
        if (parts.length === 2) return send(res, 200, without('test_taker', testTaker(p)));
        if (parts[2] === 'scorecard') return u.searchParams.get('sp') === 'sales-rep' ? send(res, 200, scorecard(p, 'sales-rep')) : send(res, 400, { error: 'sp is invalid' });
        if (parts[2] === 'job-fit-report') return completedOf(p).length === 2 ? send(res, 200, jobFit(p)) : send(res, 400, { error: 'Job fit report not available' });
        break;
      }
      case 'career-navigation-profiles': {
        const p = profileOf(parts[1] ?? '');
        return p ? send(res, 200, profile(p)) : send(res, 404, null);
      }
    }
    return send(res, 404, { error: 'Not found' });
  }

  const http = createServer(handle);
  const bound = await listenLoopback(http);
  const url = `http://127.0.0.1:${bound.port}`;
  const server: SyncFaultServer = {
    url,
    env: { JOBFIT_BASE_URL: url, JOBFIT_API_KEY: SYNC_FAULT_KEY, JOBFIT_MAX_RETRIES: '0' },
    faults,
    remove(invitationId) {
      folk.remove(invitationId);
    },
    accept(invitationId) {
      const p = byInvitation(invitationId);
      if (!p || p.test_taker_id !== null) throw new Error(`invitation ${invitationId} is not pending`);
      folk.accept(invitationId, false, { takerId: 70001 + ix(p), at: at(ix(p), 1) });
    },
    invite() {
      return add(invited++, false).id;
    },
    truth() {
      const all = folk.invitations;
      return { invitations: all.map((p) => p.id).sort(), testTakers: all.flatMap((p) => (p.test_taker_id === null ? [] : [p.test_taker_id])).sort() };
    },
    close: bound.close,
  };
  return server;
}

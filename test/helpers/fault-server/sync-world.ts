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
 * People: invitation 50001 + i; the accepted ones have test taker 70001 + i.
 * Every third person is pending, every third has completed Personality only,
 * the rest completed Personality and Career Interests (job-fit report and a
 * career navigation profile).
 */
import { type IncomingMessage, type ServerResponse, createServer } from 'node:http';
import { listenLoopback } from './listen.js';

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

interface Person {
  i: number;
  invitation: number;
  taker: number | null;
  /** Order of acceptance (the test-taker list is newest first by it). */
  acceptedSeq: number;
  team: { id: number; display_name: string };
  email: string;
  completed: number[];
  /** When invited, if not CREATED + i minutes (a person invited while the server runs). */
  createdAt?: string;
}

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

export async function startSyncWorld(people: number): Promise<SyncFaultServer> {
  const faults: SyncFaultServer['faults'] = { stringIds: false, overstate: {}, uncounted: [], hidden: [], omit: [], noDate: false };
  let acceptances = 0;
  // The next person invite() makes: after the seeded ones, never an id the server had.
  let invited = people;
  const persons = new Map<number, Person>();
  for (let i = 0; i < people; i++) {
    const accepted = i % 3 !== 0;
    persons.set(50001 + i, {
      i,
      invitation: 50001 + i,
      taker: accepted ? 70001 + i : null,
      acceptedSeq: accepted ? ++acceptances : 0,
      team: TEAMS[i % 2],
      email: `person${i}@faultco.example`,
      completed: !accepted ? [] : i % 3 === 1 ? [6] : [6, 8],
    });
  }
  const takers = new Map([...persons.values()].flatMap((p) => (p.taker === null ? [] : [[p.taker, p] as const])));
  const profiles = new Map([...persons.values()].flatMap((p) => (p.completed.includes(8) ? [[`cnp_${p.i}` as string, p] as const] : [])));
  const byTaker = (id: number) => takers.get(id);
  // Ids as the switch says: numbers, or numeric strings.
  const id = (n: number) => (faults.stringIds ? String(n) : n);
  const team = (t: Person['team']) => ({ id: id(t.id), display_name: t.display_name });
  const at = (p: Person, minutes: number) => new Date(CREATED + p.i * 60_000 + minutes * 3_600_000).toISOString();
  const profileId = (p: Person) => (p.completed.includes(8) ? `cnp_${p.i}` : null);

  const listItem = (p: Person) => ({
    object: 'invitation_list_item',
    id: id(p.invitation),
    first_name: 'Person',
    last_name: `No${p.i}`,
    email: p.email,
    created_at: p.createdAt ?? at(p, 0),
    accepted_at: p.taker === null ? null : at(p, 1),
    assessment_url: `https://assess.example/a/${p.i}`,
    test_taker_id: p.taker === null ? null : id(p.taker),
    custom_id: `grp-${p.i % 4}`,
    person_id: `P${p.i}`,
    team: team(p.team),
    account: { id: id(ACCOUNT.id), display_name: ACCOUNT.display_name },
  });
  /** An object without the fields `omit` leaves out of `kind`. */
  const without = (kind: 'test_taker' | 'invitation', o: Record<string, unknown>) => {
    for (const f of faults.omit) if (f.startsWith(`${kind}.`)) delete o[f.slice(kind.length + 1)];
    return o;
  };
  const invitation = (p: Person): Record<string, unknown> => ({
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
    send_congrats_notification: p.i % 2 === 0,
    target_score_profile: null,
    invitation_assessments: [ASSESSMENT[6], ASSESSMENT[8]].map((a) => ({ ...a, id: id(a.id) })),
    career_navigation_url: profileId(p) ? `https://career.example/${p.i}` : null,
    scorecard_url: p.taker === null ? null : `https://results.example/s/${p.i}`,
    job_fit_summary_url: null,
    career_options_spotlight_url: null,
    career_navigation_profile_id: profileId(p),
  });
  const testTaker = (p: Person): Record<string, unknown> => ({
    mode: 'live',
    object: 'test_taker',
    id: id(p.taker!),
    person_id: `P${p.i}`,
    custom_id: `grp-${p.i % 4}`,
    invitation_id: id(p.invitation),
    phone: null,
    assigned_assessments: [6, 8].map((a, k) => ({
      id: id(p.taker! * 10 + k),
      completed_at: p.completed.includes(a) ? at(p, 2 + k) : null,
      language: p.completed.includes(a) ? 'en' : null,
      assessment: { ...ASSESSMENT[a as 6 | 8], id: id(a) },
    })),
    scorecard_url: `https://results.example/s/${p.i}`,
    job_fit_summary_url: null,
    career_navigation_url: profileId(p) ? `https://career.example/${p.i}` : null,
    career_navigation_profile_id: profileId(p),
  });
  const score = (short: string, value: number) => ({ object: 'score', id: id(value), display_name: short, short_name: short, description: '', is_starred: false, yellow_band: 50, test_taker_score: value });
  const scorecard = (p: Person, sp: string) => ({
    mode: 'live',
    object: 'scorecard',
    test_taker_id: id(p.taker!),
    invitation_id: id(p.invitation),
    custom_id: `grp-${p.i % 4}`,
    person_id: `P${p.i}`,
    career_navigation_profile_id: profileId(p),
    first_name: 'Person',
    last_name: `No${p.i}`,
    email: p.email,
    phone: null,
    fitscore_raw: 0.5 + (p.i % 7) / 1000,
    five_star_score: 1 + (p.i % 5),
    job_fit_percentage: 40 + (p.i % 50) + 0.5,
    scorecard_url: `https://results.example/s/${p.i}`,
    score_profile: { id: id(3), display_name: 'Sales Rep', short_name: sp, riasec_profile: 'ESC' },
    riasec_profile: 'ESC',
    scores: {
      thinking_skills: null,
      personality_traits: [score('agree', 40 + (p.i % 9))],
      career_interests: p.completed.includes(8) ? [score('ci-ent', 3)] : null,
      skill_survey_reference: null,
      structured_interview: null,
    },
  });
  const jobFit = (p: Person) => ({
    mode: 'live',
    object: 'job_fit_report',
    test_taker_id: id(p.taker!),
    invitation_id: id(p.invitation),
    riasec_profile: 'ESC',
    team: team(p.team),
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
  const profile = (p: Person) => ({
    mode: 'live',
    object: 'career_navigation_profile',
    id: profileId(p),
    person_id: `P${p.i}`,
    test_taker_id: id(p.taker!),
    career_navigation_url: `https://career.example/${p.i}`,
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
  const listed = (of: Person[], q: URLSearchParams, item: (p: Person) => unknown, newer: (a: Person, b: Person) => number) => {
    const teamId = q.get('team_id');
    const customId = q.get('custom_id')?.toLowerCase();
    const email = q.get('email')?.toLowerCase();
    const matches = of
      .filter((p) => (teamId === null || String(p.team.id) === teamId) && (!customId || `grp-${p.i % 4}`.includes(customId)) && (!email || p.email.includes(email)))
      .sort(newer);
    return { items: matches.slice(0, customId || email ? 150 : 50).map(item), total: matches.length };
  };
  const takerListItem = (p: Person) => ({ id: id(p.taker!), custom_id: `grp-${p.i % 4}`, person_id: `P${p.i}`, team: team(p.team), account: { id: id(ACCOUNT.id), display_name: ACCOUNT.display_name } });

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
          const of = [...persons.values()].filter((p) => p.team.id === t.id);
          return { object: 'team_list_item', ...team(t), users_count: 1, invitations_count: of.length, test_takers_count: of.filter((p) => p.taker !== null).length };
        });
        return sendList(res, 'teams', teams, teams.length);
      }
      case 'score-profiles':
        return send(res, 200, list([{ object: 'score_profile', id: id(3), display_name: 'Sales Rep', short_name: 'sales-rep', riasec_profile: 'ESC' }], 1));
      case 'invitations': {
        if (parts.length === 1) {
          server.beforeList?.('invitations');
          const { items, total } = listed([...persons.values()].filter((p) => !faults.hidden.includes(p.invitation)), u.searchParams, listItem, (a, b) => b.i - a.i);
          return sendList(res, 'invitations', items, total);
        }
        const p = persons.get(num(parts[1]));
        return p ? send(res, 200, without('invitation', invitation(p))) : send(res, 400, { error: 'Invitation not found' });
      }
      case 'test-takers': {
        if (parts.length === 1) {
          server.beforeList?.('test-takers');
          const { items, total } = listed([...takers.values()], u.searchParams, takerListItem, (a, b) => b.acceptedSeq - a.acceptedSeq);
          return sendList(res, 'test-takers', items, total);
        }
        const p = byTaker(num(parts[1]));
        if (!p) return send(res, 400, { error: 'Test taker not found' });
        if (parts.length === 2) return send(res, 200, without('test_taker', testTaker(p)));
        if (parts[2] === 'scorecard') return u.searchParams.get('sp') === 'sales-rep' ? send(res, 200, scorecard(p, 'sales-rep')) : send(res, 400, { error: 'sp is invalid' });
        if (parts[2] === 'job-fit-report') return p.completed.length === 2 ? send(res, 200, jobFit(p)) : send(res, 400, { error: 'Job fit report not available' });
        break;
      }
      case 'career-navigation-profiles': {
        const p = profiles.get(parts[1] ?? '');
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
      const p = persons.get(invitationId);
      persons.delete(invitationId);
      if (p?.taker) takers.delete(p.taker);
      if (p) profiles.delete(`cnp_${p.i}`);
    },
    accept(invitationId) {
      const p = persons.get(invitationId);
      if (!p || p.taker !== null) throw new Error(`invitation ${invitationId} is not pending`);
      p.taker = 70001 + p.i;
      p.acceptedSeq = ++acceptances;
      takers.set(p.taker, p);
    },
    invite() {
      const i = invited++;
      persons.set(50001 + i, { i, invitation: 50001 + i, taker: null, acceptedSeq: 0, team: TEAMS[i % 2], email: `person${i}@faultco.example`, completed: [], createdAt: new Date().toISOString() });
      return 50001 + i;
    },
    truth() {
      const all = [...persons.values()];
      return { invitations: all.map((p) => p.invitation).sort(), testTakers: all.flatMap((p) => (p.taker === null ? [] : [p.taker])).sort() };
    },
    close: bound.close,
  };
  return server;
}

/**
 * Issue 44, item 3: tables fit. Every list command's table on a terminal of
 * 80 and 120 columns, as a person sees it (golden files beside this test):
 * no header is ever cut, a name and an email are shown whole, and when the
 * table is too wide the lowest-value columns are left out first, said on
 * stderr with how to get them. The data come from a server with fixed answers
 * (long names, emails and team names, as a real account has) and a fixed clock.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fitColumns } from '../../src/format/table-fit.js';
import { runCli } from '../helpers/cli.js';
import { type FaultServer, send, startFaultServer } from '../helpers/fault-server.js';

const KEY = 'sk_test_goldengoldengolden1a2b';
const NOW = new Date('2026-11-27T12:00:00Z');
const team = (id: number, display_name: string) => ({ id, display_name });
const account = { id: 1, display_name: 'Northwind Talent' };
const people = [
  ['Murphy', "O'Connell-Fitzgerald", 'murphy.oconnell-fitzgerald@northwind-talent.example', team(12, 'Retail Stores North'), 'CUSTOM 0042-A', '2026-11-25T09:30:00Z', null, null],
  ['Ana', 'Diaz', 'ana.diaz@example.com', team(13, 'Head Office'), null, '2026-11-20T14:00:00Z', '2026-11-21T08:00:00Z', 500144],
  ['Jean-Baptiste', 'van der Berg', 'jb.vanderberg@bluefield-care.example', team(12, 'Retail Stores North'), 'store-0042', '2026-10-02T10:00:00Z', '2026-10-03T11:00:00Z', 500101],
] as const;

const invitations = people.map(([first_name, last_name, email, t, custom_id, created_at, accepted_at, test_taker_id], i) => ({
  object: 'invitation_list_item', id: 100200 + i, first_name, last_name, email, created_at, accepted_at,
  assessment_url: `https://assess.example/a/${i}`, test_taker_id, custom_id, person_id: null, team: t, account,
}));
const testTakers = people.filter((p) => p[7] !== null).map(([first_name, last_name, email, t, custom_id, , accepted_at, id], i) => ({
  object: 'test_taker_list_item', id, invitation_id: 100201 + i, first_name, last_name, email, created_at: accepted_at, custom_id, person_id: `P-${id}`, team: t, account,
}));
const lists: Record<string, unknown[]> = {
  '/v2/invitations': invitations,
  '/v2/test-takers': testTakers,
  '/v2/career-navigation-profiles': [
    { object: 'career_navigation_profile_list_item', id: 'cnp_8f3a2b1c9d', test_taker_id: 500144, custom_id: null, person_id: 'P-500144', career_navigation_url: 'https://careers.example/p/cnp_8f3a2b1c9d?lang=en', created_at: '2026-11-22T10:00:00Z' },
  ],
  '/v2/teams': [
    { object: 'team_list_item', id: 12, display_name: 'Retail Stores North', users_count: 4, invitations_count: 1280, test_takers_count: 977 },
    { object: 'team_list_item', id: 13, display_name: 'Head Office', users_count: 2, invitations_count: 12, test_takers_count: 9 },
  ],
  '/v2/users': [
    {
      object: 'user', id: 7, first_name: 'Dana', last_name: 'Whitfield', email: 'dana.whitfield@northwind-talent.example', default_team: team(12, 'Retail Stores North'),
      default_assessments: [{ id: 6, display_name: 'Personality Traits', short_name: 'Personality' }, { id: 8, display_name: 'Career Interests', short_name: 'Interests' }],
      default_invitation_email_template: { id: 301, display_name: 'Welcome' }, default_congrats_email_template: null,
    },
    { object: 'user', id: 8, first_name: 'Ingrid', last_name: 'Halvorsen', email: 'ingrid.halvorsen@northwind-talent.example', default_team: null, default_assessments: [], default_invitation_email_template: null, default_congrats_email_template: null },
  ],
  '/v2/email-templates': [
    { object: 'email_template', id: 301, display_name: 'Welcome to Northwind (retail, English)', template_type: 'invitation', teams: [team(12, 'Retail Stores North'), team(13, 'Head Office')] },
    { object: 'email_template', id: 302, display_name: 'Congratulations', template_type: 'congrats', teams: [team(13, 'Head Office')] },
  ],
  '/v2/assessments': [
    { object: 'assessment', id: 6, display_name: 'Personality Traits', short_name: 'Personality' },
    { object: 'assessment', id: 8, display_name: 'Career Interests', short_name: 'Interests' },
  ],
  '/v2/score-profiles': [{ object: 'score_profile', id: 41, display_name: 'Sales Representative (retail, field and inside sales)', short_name: 'sales-rep', riasec_profile: 'ECS' }],
};

let server: FaultServer;
let env: Record<string, string>;
beforeAll(async () => {
  server = await startFaultServer({ anyKey: true });
  server.faults.push((req, res) => {
    const data = lists[req.path];
    return send(res, data ? 200 : 404, data ? { mode: 'test', object: 'list', total_count: data.length, has_more: false, data } : { error: 'not here' });
  });
  env = { JOBFIT_BASE_URL: `${server.url}/v2`, JOBFIT_API_KEY: KEY };
});
afterAll(() => server.close());

const COMMANDS = [['invitations', 'list'], ['test-takers', 'list'], ['profiles', 'list'], ['teams'], ['users'], ['templates'], ['assessments'], ['score-profiles']];

describe.each([80, 120])('at %i columns', (columns) => {
  it.each(COMMANDS.map((c) => [c.join(' '), c]))('%s', async (name, args) => {
    const r = await runCli(args as string[], { env, tty: true, columns, now: () => NOW, noColor: true });
    expect(r.code, r.stderr).toBe(0);
    await expect(r.stdout).toMatchFileSnapshot(`./golden/${(name as string).replace(' ', '-')}-${columns}.txt`);
    const lines = r.stdout.trimEnd().split('\n');
    // No line wider than the terminal, and the header line's words whole.
    for (const l of lines) expect([...l].length, l).toBeLessThanOrEqual(columns);
    expect(lines[0]).not.toContain('…');
    const dropped = /Left out to fit (\d+) columns: ([^;]+); see them with --fields (\S+), or every column with -o csv\./.exec(r.stderr);
    if (dropped) expect(Number(dropped[1])).toBe(columns);
  });
});

describe('what a person reads whole', () => {
  it('invitations list at 80: every email whole, the test taker id left out first, said on stderr', async () => {
    const r = await runCli(['invitations', 'list'], { env, tty: true, columns: 80, now: () => NOW, noColor: true });
    for (const [, , email] of people) expect(r.stdout).toContain(email);
    expect(r.stdout).not.toContain('TEST TAKER');
    expect(r.stderr).toContain(
      'Left out to fit 80 columns: TEST TAKER (test_taker_id), CUSTOM ID, CREATED (created_at), TEAM, ACCEPTED (accepted_at); see them with --fields id,test_taker_id,custom_id,created_at,team,accepted_at, or every column with -o csv.',
    );
  });

  it('at 100: every name and email whole (they fit together), lower columns left out instead', async () => {
    const r = await runCli(['invitations', 'list'], { env, tty: true, columns: 100, now: () => NOW, noColor: true });
    for (const [first, last, email] of people) {
      expect(r.stdout).toContain(email);
      expect(r.stdout).toContain(`${first} ${last}`);
    }
  });

  it('at 120 or piped, nothing is left out', async () => {
    const wide = await runCli(['invitations', 'list'], { env, tty: true, columns: 200, now: () => NOW, noColor: true });
    expect(wide.stderr).not.toContain('Left out');
    const piped = await runCli(['invitations', 'list', '-o', 'table'], { env, now: () => NOW });
    expect(piped.stdout.split('\n')[0]).toMatch(/ID\s+NAME\s+EMAIL\s+TEAM\s+CUSTOM ID\s+CREATED\s+ACCEPTED\s+TEST TAKER/);
    expect(piped.stderr).not.toContain('Left out');
  });
});

describe('fitColumns', () => {
  it('drops by order until the floors fit, never below a header', () => {
    const cols = [
      { header: 2, natural: 6 },
      { header: 5, natural: 40, whole: true },
      { header: 4, natural: 30, drop: 2 },
      { header: 10, natural: 12, drop: 1 },
    ];
    const fit = fitColumns(cols, 60);
    expect(fit.dropped).toEqual([3]);
    expect(fit.keep).toEqual([0, 1, 2]);
    expect(fit.widths[1]).toBe(40);
    expect(fit.widths[2]).toBeGreaterThanOrEqual(4);
    expect(fit.widths.reduce((a, b) => a + b, 0) + 2 * 2).toBeLessThanOrEqual(60);
  });

  it('nothing to drop and too wide: the floors, headers whole (a long line, never a cut header)', () => {
    const fit = fitColumns([{ header: 30, natural: 30 }, { header: 30, natural: 50 }], 40);
    expect(fit.widths).toEqual([30, 30]);
  });
});

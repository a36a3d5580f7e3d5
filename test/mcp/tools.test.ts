/**
 * Every tool answers what its command prints with -o json, on the same stub
 * (issue 45, item 2): the SDK's Client calls each tool, runCli runs the
 * command, and the two are compared. A tool without a case here fails the
 * first test, so a new tool cannot go unchecked.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allPages, asStructured, byId, type Harness, inProcess } from './harness.js';

let h: Harness;
beforeAll(async () => {
  h = await inProcess({ toolsets: ['all'] });
}, 60_000);
afterAll(() => h?.close());

const json = async (argv: string[]) => {
  const r = await h.cli([...argv, '-o', 'json']);
  expect(r.code, r.stderr).toBe(0);
  return r.stdout;
};

/** Tool call → the command line it must equal. */
const CASES: Array<[string, Record<string, unknown>, string[]]> = [
  ['whoami', {}, ['whoami']],
  ['health', {}, ['health']],
  ['invitations_list', { email: 'example' }, ['invitations', 'list', '--email', 'example']],
  ['invitations_get', { id: '100002' }, ['invitations', 'get', '100002']],
  ['test_takers_list', { team: 'Retail Stores' }, ['test-takers', 'list', '--team', 'Retail Stores']],
  // Options a command gained after the server was written reach its tool (status, since).
  ['test_takers_list', { status: 'completed', since: '2026-01-01' }, ['test-takers', 'list', '--status', 'completed', '--since', '2026-01-01']],
  ['test_takers_get', { id: '500001' }, ['test-takers', 'get', '500001']],
  ['profiles_list', {}, ['profiles', 'list']],
  ['scorecards', { sp: 'sales-rep', ids: ['500001', '500002'] }, ['scorecard', '500001', '500002', '--sp', 'sales-rep']],
  ['scorecards', { sp: 'sales-rep', ids: ['500001'] }, ['scorecard', '500001', '--sp', 'sales-rep']],
  ['job_fit', { ids: ['500001'] }, ['job-fit', '500001']],
  ['group_report', { sp: 'sales-rep', groupBy: 'custom_id' }, ['report', '--sp', 'sales-rep', '--group-by', 'custom_id']],
  ['catalog', { what: 'account' }, ['accounts']],
  ['catalog', { what: 'teams' }, ['teams']],
  ['catalog', { what: 'users' }, ['users']],
  ['catalog', { what: 'templates' }, ['templates']],
  ['catalog', { what: 'assessments' }, ['assessments']],
  ['catalog', { what: 'score_profiles' }, ['score-profiles']],
];

describe('each tool equals its command', () => {
  it('every served tool has a case (profiles_get is checked below with an id from the list)', async () => {
    const names = (await h.client.listTools()).tools.map((t) => t.name);
    expect(names.length).toBeGreaterThan(10);
    for (const n of names) expect([...CASES.map((c) => c[0]), 'profiles_get'], n).toContain(n);
  });

  it.each(CASES)('%s %j = jobfit %j -o json', async (tool, args, argv) => {
    const r = await h.call(tool, args);
    expect(r.isError, JSON.stringify(r.content)).toBeFalsy();
    const printed = await json(argv);
    // whoami and health carry a moment or an address that differs from run to run: compared without it.
    const strip = (v: unknown) => JSON.parse(JSON.stringify(v, (k, x: unknown) => (k === 'timestamp' ? undefined : x))) as unknown;
    // A tool of many ids answers { data: [...] } for one id too.
    const many = (tool === 'scorecards' || tool === 'job_fit') && !printed.trimStart().startsWith('[');
    expect(strip(r.structuredContent)).toEqual(strip(many ? { data: [JSON.parse(printed)] } : asStructured(printed)));
    if (tool !== 'health') expect((r.content[0] as { text: string }).text).toBe(printed.trim());
  });

  it('profiles_get of the first listed profile', async () => {
    const id = (JSON.parse(await json(['profiles', 'list'])) as { data: Array<{ id: string }> }).data[0].id;
    const r = await h.call('profiles_get', { id });
    expect(r.structuredContent).toEqual(JSON.parse(await json(['profiles', 'get', id])));
  });

  it('fields: only those fields, as --fields', async () => {
    const r = await h.call('test_takers_list', { fields: ['id', 'email', 'team.display_name'] });
    expect(r.structuredContent).toEqual(JSON.parse(await json(['test-takers', 'list', '--fields', 'id,email,team.display_name'])));
    expect(Object.keys((r.structuredContent as { data: object[] }).data[0])).toEqual(['id', 'email', 'team']);
  });
});

describe('complete lists, in pages', () => {
  // The same rows, compared sorted by id (byId says why).
  it('test_takers_list all: the pages add up to `test-takers list --all -o json`', async () => {
    const whole = JSON.parse(await json(['test-takers', 'list', '--all'])) as { data: unknown[]; total_count: number };
    expect(whole.data.length).toBeGreaterThan(50);
    const got = await allPages(h, 'test_takers_list', { all: true });
    expect(got.pages).toBe(Math.ceil(whole.data.length / 50));
    expect(got.items).toHaveLength(whole.data.length);
    expect(byId(got.items)).toEqual(byId(whole.data));
    expect(got.first).toMatchObject({ object: 'list', total_count: whole.total_count, page: { offset: 0, count: 50, of: whole.data.length } });
  });

  it('scorecards all and invitations_list all: the same', async () => {
    const cards = JSON.parse(await json(['scorecard', '--all', '--sp', 'sales-rep'])) as unknown[];
    expect(byId((await allPages(h, 'scorecards', { all: true, sp: 'sales-rep' })).items)).toEqual(byId(cards));
    const inv = JSON.parse(await json(['invitations', 'list', '--all'])) as { data: unknown[] };
    expect(byId((await allPages(h, 'invitations_list', { all: true })).items)).toEqual(byId(inv.data));
  });

  it('an unknown cursor: usage, in one sentence', async () => {
    const r = await h.call('test_takers_list', { cursor: 'nope:50' });
    expect(r.isError).toBe(true);
    expect(r.structuredContent).toMatchObject({ error: { code: 'usage', message: expect.stringMatching(/cursor is not known/) } });
  });
});

describe('errors carry the command sentence, hint and a stable code', () => {
  it('not_found and usage, as the command says them with -o json', async () => {
    const r = await h.call('invitations_get', { id: '999' });
    const cli = await h.cli(['invitations', 'get', '999', '-o', 'json']);
    expect(r.isError).toBe(true);
    expect(r.structuredContent).toEqual(JSON.parse(cli.stderr.trim().split('\n').pop()!));
    expect(r.structuredContent).toMatchObject({ error: { code: 'not_found', status: 400 } });
    const bad = await h.call('invitations_get', { id: 'abc' });
    expect(bad.structuredContent).toMatchObject({ error: { code: 'usage', message: 'ID: ID must be a positive integer.' } });
    const nosp = await h.call('scorecards', { sp: 'nope', ids: ['500001'] });
    expect(nosp.structuredContent).toMatchObject({ error: { code: 'usage' } });
  });
});

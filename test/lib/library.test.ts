/**
 * The library's functions in-process (src/lib), at the sizes the CLI is held
 * to: 10,000 rows invited and listed back exactly, a run stopped by its
 * signal, rows that are invalid or blank, cells that a CSV would mangle.
 * test/lib/pack.test.ts runs the same functions from the packed package.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bulkInvite, createClient, InvalidRowsError, type JobfitClient, listAll, startStub, type Stub, UsageError } from '../../src/lib/index.js';

let stub: Stub;
let client: JobfitClient;
let inviter: string;

beforeAll(async () => {
  stub = await startStub();
  client = createClient({ baseUrl: stub.url, apiKey: stub.keys[0].live_key });
  inviter = (await client.listUsers()).data[0].email;
});

afterAll(async () => {
  await client?.close();
  await stub?.close();
});

describe('bulkInvite and listAll at 10,000 rows', () => {
  it('invites every row once, reports each in its place, and listAll finds them all', async () => {
    const rows = Array.from({ length: 10_000 }, (_, i) => ({ email: `p${i}@big${i % 37}.example`, first_name: 'Pat', last_name: `Row ${i}` }));
    let last = { done: 0, total: 0, failed: 0 };
    const r = await bulkInvite(client, rows, { defaults: { createdBy: inviter }, concurrency: 16, onProgress: (p) => (last = p) });
    expect({ created: r.created, exists: r.exists, invalid: r.invalid, failed: r.failed, notSent: r.notSent, interrupted: r.interrupted }).toEqual({
      created: 10_000,
      exists: 0,
      invalid: 0,
      failed: 0,
      notSent: 0,
      interrupted: false,
    });
    expect(last).toEqual({ done: 10_000, total: 10_000, failed: 0 });
    expect(r.rows.map((x) => x.index)).toEqual(rows.map((_, i) => i));
    expect(new Set(r.rows.map((x) => x.invitationId)).size).toBe(10_000);
    // Each result is its own row's invitation.
    const sample = await client.getInvitation(r.rows[4321].invitationId!);
    expect(sample.email).toBe('p4321@big29.example');

    const all = await listAll(client, 'invitations');
    const total = (await client.listInvitations()).total_count;
    expect(total).toBeGreaterThan(10_000);
    expect(all.length).toBe(total);
    expect(new Set(all.map((i) => i.id)).size).toBe(total);
    const ours = new Set(r.rows.map((x) => x.invitationId));
    expect(all.filter((i) => ours.has(i.id)).length).toBe(10_000);
    // A filter is applied exactly too (the email filter is a substring).
    const big7 = await listAll(client, 'invitations', { email: '@big7.' });
    expect(big7.length).toBe(rows.filter((_, i) => i % 37 === 7).length);
  }, 120_000);
});

describe('bulkInvite, row by row', () => {
  it('refuses the whole run when a row is invalid or blank, naming each, and sends nothing', async () => {
    const before = (await client.listInvitations()).total_count;
    const rows = [{ email: 'good@refused.example', first_name: 'A', last_name: 'B' }, { email: 'nope', first_name: 'C', last_name: 'D' }, {}, { email: null }];
    const err = await bulkInvite(client, rows, { defaults: { createdBy: inviter } }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InvalidRowsError);
    expect(err).toBeInstanceOf(UsageError);
    const e = err as InvalidRowsError;
    expect(e.message).toBe('3 of 4 rows are invalid; nothing was sent.');
    expect(e.rows.map((r) => r.index)).toEqual([1, 2, 3]);
    expect(e.rows[0].errors).toEqual([{ field: 'email', reason: 'Invalid email address' }]);
    expect(e.rows[1].errors).toEqual([{ field: '(row)', reason: 'is empty' }]);
    expect((await client.listInvitations()).total_count).toBe(before);
  });

  it('with skipInvalid, sends the valid rows and reports the rest in place; cells keep commas, quotes and formulas', async () => {
    const tricky = '=Sum, "Q" \'x';
    const rows = [
      { 'E-mail': 'one@cells.example', 'First Name': tricky, 'Last Name': 'Ng' },
      { 'E-mail': 'two@cells.example', 'First Name': 'Bo' },
      {},
      { 'E-mail': 'three@cells.example', 'First Name': 'Cy', 'Last Name': 'Ode', assessments: ['personality', 'thinking'] },
    ];
    const r = await bulkInvite(client, rows, { skipInvalid: true, defaults: { createdBy: inviter } });
    expect(r.rows.map((x) => x.status)).toEqual(['created', 'invalid', 'invalid', 'created']);
    expect(r.rows[1].error).toBe('last_name: Last name is required');
    expect(r.rows[2].error).toBe('(row): is empty');
    expect({ created: r.created, invalid: r.invalid }).toEqual({ created: 2, invalid: 2 });
    const one = await client.getInvitation(r.rows[0].invitationId!);
    expect(one.first_name).toBe(tricky);
    const three = await client.getInvitation(r.rows[3].invitationId!);
    expect(three.invitation_assessments.map((a) => a.id).sort()).toEqual([6, 7]);
  });

  it('a run stopped by its signal finishes the rows in flight and reports the rest not sent', async () => {
    const ac = new AbortController();
    const rows = Array.from({ length: 400 }, (_, i) => ({ email: `stop${i}@signal.example`, first_name: 'S', last_name: `T${i}` }));
    const r = await bulkInvite(client, rows, {
      concurrency: 2,
      signal: ac.signal,
      defaults: { createdBy: inviter },
      onProgress: (p) => {
        if (p.done >= 20) ac.abort();
      },
    });
    expect(r.interrupted).toBe(true);
    expect(r.created).toBeGreaterThanOrEqual(20);
    expect(r.created + r.notSent).toBe(400);
    expect(r.notSent).toBeGreaterThan(0);
    const statuses = r.rows.map((x) => x.status);
    // Sent rows first, then the ones the stop kept back, each in its place.
    expect(statuses.lastIndexOf('created')).toBeLessThan(statuses.indexOf('not_sent'));
  });

  it('an empty list is an empty result, without a request', async () => {
    const r = await bulkInvite(client, []);
    expect(r).toMatchObject({ created: 0, invalid: 0, rows: [] });
  });
});

describe('arguments', () => {
  it('are checked with a TypeError naming the argument', async () => {
    expect(() => createClient({ baseUrl: 'not a url', apiKey: 'k' })).toThrow(/baseUrl must be an absolute URL/);
    expect(() => createClient({ baseUrl: stub.url, apiKey: '' })).toThrow(/apiKey must be a non-empty string/);
    expect(() => createClient({ baseUrl: stub.url, apiKey: 'k', timeoutMs: 0 })).toThrow(/timeoutMs must be a number above 0/);
    expect(() => createClient({ baseUrl: stub.url, apiKey: 'k', maxRetries: 1.5 })).toThrow(/maxRetries must be a whole number/);
    await expect(listAll(client, 'teams' as never)).rejects.toThrow(/resource must be one of invitations, test-takers, profiles/);
    await expect(listAll(client, 'profiles', { team_id: 1 })).rejects.toThrow(/the profile list takes no filters/);
    await expect(bulkInvite(client, [], { concurrency: 65 })).rejects.toThrow(/concurrency must be a whole number from 1 to 64/);
  });
});

describe('the environment', () => {
  it('a program\'s client reads no JOBFIT_* setting: a JOBFIT_TIMEOUT meant for the CLI neither breaks nor changes it', async () => {
    const saved = process.env.JOBFIT_TIMEOUT;
    process.env.JOBFIT_TIMEOUT = 'soon';
    try {
      const own = createClient({ baseUrl: stub.url, apiKey: stub.keys[0].live_key });
      const teams = await own.listTeams();
      expect(teams.object).toBe('list');
      await own.close();
    } finally {
      if (saved === undefined) delete process.env.JOBFIT_TIMEOUT;
      else process.env.JOBFIT_TIMEOUT = saved;
    }
  });
});

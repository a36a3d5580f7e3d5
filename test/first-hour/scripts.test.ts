/**
 * Issue 14, "Scripts": what a script meets in jobfit's output, in-process
 * against a stub on a loopback port.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { type StubEnv, startStubEnv } from '../commands/stub-env.js';

let s: StubEnv;
beforeAll(async () => {
  s = await startStubEnv();
});
afterAll(async () => {
  await s?.close();
});
const cli = (argv: string[], o: { stdin?: string; tty?: boolean } = {}) => runCli(argv, { env: s.env, ...o });

describe('7. no constant columns in CSV and tables unless --fields asks', () => {
  it('lists, streamed lists and single objects leave out object and mode', async () => {
    const teams = await cli(['teams', '-o', 'csv']);
    expect(teams.stdout.split('\n')[0]).toBe('id,display_name,users_count,invitations_count,test_takers_count');
    for (const argv of [['invitations', 'list'], ['invitations', 'list', '--all'], ['test-takers', 'list', '--all'], ['users']]) {
      const r = await cli([...argv, '-o', 'csv']);
      expect(r.code, r.stderr).toBe(0);
      const header = r.stdout.split('\n')[0].split(',');
      expect(header[0], argv.join(' ')).toBe('id');
      expect(header).not.toContain('object');
      expect(r.stderr).not.toContain('Warning');
    }
    const one = await cli(['invitations', 'get', '100100', '-o', 'csv']);
    expect(one.stdout.split('\n')[0].split(',')).not.toContain('mode');
    const table = await cli(['invitations', 'get', '100100'], { tty: true });
    expect(table.stdout).not.toMatch(/^\s*object\b/m);
  });

  it('--fields brings them back when asked', async () => {
    const r = await cli(['teams', '-o', 'csv', '--fields', 'object,id']);
    expect(r.stdout.split('\n').slice(0, 2)).toEqual(['object,id', 'team_list_item,11']);
  });
});

describe('6. jobfit\'s own output is an id list for --ids-from', () => {
  it('CSV with its header, NDJSON, JSON envelopes (test_taker_id before id)', async () => {
    const csv = await cli(['test-takers', 'list', '-o', 'csv', '--fields', 'id']);
    expect(csv.stdout.split('\n')[0]).toBe('id');
    const ids = csv.stdout.trim().split('\n').slice(1).map(Number);
    const fromCsv = await cli(['scorecard', '--ids-from', '-', '--sp', 'sales-rep', '-o', 'ndjson'], { stdin: csv.stdout });
    expect(fromCsv.code, fromCsv.stderr).toBe(0);
    expect(fromCsv.stdout.trim().split('\n').map((l) => JSON.parse(l).test_taker_id)).toEqual(ids);

    const ndjson = await cli(['test-takers', 'list', '-o', 'ndjson']);
    const fromNd = await cli(['scorecard', '--ids-from', '-', '--sp', 'sales-rep', '-o', 'ndjson'], { stdin: ndjson.stdout });
    expect(fromNd.code, fromNd.stderr).toBe(0);
    expect(fromNd.stdout.trim().split('\n').map((l) => JSON.parse(l).test_taker_id)).toEqual(ids);

    // Invitations: their test_taker_id, not their own id; those not accepted have none and are left out.
    const inv = await cli(['invitations', 'list', '-o', 'json']);
    const accepted = (JSON.parse(inv.stdout).data as Array<{ test_taker_id: number | null }>).map((i) => i.test_taker_id).filter((x) => x !== null);
    const fromJson = await cli(['scorecard', '--ids-from', '-', '--sp', 'sales-rep', '-o', 'ndjson'], { stdin: inv.stdout });
    expect(fromJson.code, fromJson.stderr).toBe(0);
    expect(fromJson.stdout.trim().split('\n').map((l) => JSON.parse(l).test_taker_id)).toEqual(accepted);
  });

  it('a plain list still works, and a CSV without an id column is refused in one sentence', async () => {
    expect((await cli(['scorecard', '--ids-from', '-', '--sp', 'sales-rep', '-o', 'json'], { stdin: '# ids\n500100\n' })).code).toBe(0);
    const bad = await cli(['scorecard', '--ids-from', '-', '--sp', 'sales-rep'], { stdin: 'email\nx@example.com\n' });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/^Error: Line 1 of the id list is not a test taker id: "email"\.$/m);
  });
});

describe('8. one id: one answer, and its failure is a failure', () => {
  it('scorecard and job-fit with one unknown id exit 1 with one sentence and print nothing', async () => {
    for (const argv of [['scorecard', '999999', '--sp', 'sales-rep'], ['job-fit', '999999'], ['invitations', 'get', '999999']]) {
      const r = await cli([...argv, '-o', 'json']);
      expect(r.code, argv.join(' ')).toBe(1);
      expect(r.stdout, argv.join(' ')).toBe('');
      // With -o json the failure is one JSON line on stderr: a sentence and a stable code.
      const line = JSON.parse(r.stderr.trim().split('\n').pop()!) as { error: { code: string; message: string } };
      expect(line.error.code, argv.join(' ')).toBe('not_found');
      expect(line.error.message).toMatch(/.+/);
      expect(r.stderr).not.toMatch(/\n\s+at /);
    }
  });

  it('the JSON answer for one id is the object; several ids stay a list', async () => {
    const ids = (JSON.parse((await cli(['test-takers', 'list', '-o', 'json'])).stdout).data as Array<{ id: number }>).map((t) => t.id);
    const one = await cli(['scorecard', String(ids[0]), '--sp', 'sales-rep', '-o', 'json']);
    expect(one.code, one.stderr).toBe(0);
    expect(JSON.parse(one.stdout)).toMatchObject({ object: 'scorecard', test_taker_id: ids[0] });
    const two = await cli(['scorecard', String(ids[0]), String(ids[1]), '--sp', 'sales-rep', '-o', 'json']);
    expect(JSON.parse(two.stdout).map((c: { test_taker_id: number }) => c.test_taker_id)).toEqual(ids.slice(0, 2));
    const csv = await cli(['scorecard', String(ids[0]), '--sp', 'sales-rep', '-o', 'csv']);
    expect(csv.stdout.split('\n')[0]).toMatch(/^test_taker_id,/);
    const fit = await cli(['job-fit', String(ids[0]), '-o', 'json']);
    expect(fit.code, fit.stderr).toBe(0);
    expect(Array.isArray(JSON.parse(fit.stdout))).toBe(false);
  });
});

describe('9. names or ids, everywhere the same way', () => {
  it('invitations list --team and test-takers list --team take the name (any case) or the id', async () => {
    const byId = JSON.parse((await cli(['invitations', 'list', '--team', '12', '-o', 'json'])).stdout).data as Array<{ id: number }>;
    expect(byId.length).toBeGreaterThan(0);
    const byName = await cli(['invitations', 'list', '--team', 'retail stores', '-o', 'json']);
    expect(byName.code, byName.stderr).toBe(0);
    expect((JSON.parse(byName.stdout).data as Array<{ id: number }>).map((i) => i.id)).toEqual(byId.map((i) => i.id));
    const takers = await cli(['test-takers', 'list', '--team', 'Retail Stores', '-o', 'json']);
    expect(takers.code, takers.stderr).toBe(0);
    expect((JSON.parse(takers.stdout).data as Array<{ team: { id: number } }>).every((t) => t.team.id === 12)).toBe(true);
    const sc = await cli(['scorecard', '--all', '--team', 'Retail Stores', '--sp', 'sales-rep', '-o', 'ndjson']);
    expect(sc.code, sc.stderr).toBe(0);
  });

  it('an unknown name is one sentence with the closest name (exit 2)', async () => {
    const r = await cli(['invitations', 'list', '--team', 'Retail Stors']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('Error: No team named "Retail Stors" in the account (did you mean "Retail Stores"?).');
  });

  it('invitations update --template and --congrats-template take names', async () => {
    const templates = JSON.parse((await cli(['templates', '-o', 'json'])).stdout).data as Array<{ id: number; display_name: string; template_type: string }>;
    const invitation = templates.find((t) => t.template_type === 'invitation')!;
    const congrats = templates.find((t) => t.template_type === 'congrats')!;
    const open = (JSON.parse((await cli(['invitations', 'list', '-o', 'json'])).stdout).data as Array<{ id: number; accepted_at: string | null }>).find((i) => !i.accepted_at)!;
    const r = await cli(['invitations', 'update', String(open.id), '--template', invitation.display_name.toUpperCase(), '--congrats-template', congrats.display_name, '-o', 'json']);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ invitation_email_template: { id: invitation.id }, congrats_email_template: { id: congrats.id } });
    const bad = await cli(['invitations', 'update', String(open.id), '--template', 'Nope nope']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/^Error: No invitation email template named "Nope nope" in the account/m);
  });
});

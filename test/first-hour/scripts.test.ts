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

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

/**
 * Checks across options live in the commands' schemas: they answer before any
 * connection is made (no stub notice, nothing on stdout), in one sentence with
 * the hint the check gives, and an export's notes come after its examples.
 */
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';

describe('checks across options, before anything is fetched', () => {
  it('invite: flags of one participant with --csv, with the hint', async () => {
    const r = await runCli(['invite', '--file', 'people.csv', '--email', 'ana@example.com', '--ref-text', 'x']);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe('Error: --email, --ref-text describe one participant and cannot go with --csv.\nHint: put them in the file, or drop --csv\n');
  });

  it('invite: bulk flags without --csv, and --csv with --file', async () => {
    // --dry-run and --yes apply to a single invite too (issue 44).
    const bulk = await runCli(['invite', '--dry-run', '--concurrency', '3', '--map', 'A=email', '--yes']);
    expect([bulk.code, bulk.stderr]).toEqual([2, 'Error: --concurrency, --map only apply with --csv FILE (or --file FILE).\n']);
    // One flag: "only applies" (issue 44: "--dry-run only apply").
    const one = await runCli(['invite', '--resume']);
    expect([one.code, one.stderr]).toEqual([2, 'Error: --resume only applies with --csv FILE (or --file FILE).\n']);
    const both = await runCli(['invite', '--csv', 'a.csv', '--file', 'b.csv']);
    expect([both.code, both.stderr]).toEqual([2, 'Error: --csv and --file are the same option; give one.\n']);
  });

  it('scorecard and job-fit: one source of ids, --team only with --all', async () => {
    const none = await runCli(['scorecard', '--sp', 'sales-rep']);
    expect([none.code, none.stderr]).toEqual([2, 'Error: Give test taker ids, --ids-from FILE|- or --all.\n']);
    const team = await runCli(['job-fit', '2001', '--team', '3']);
    expect([team.code, team.stderr]).toEqual([2, 'Error: --team and --custom-id go with --all.\n']);
    const bad = await runCli(['jobfit', '20x1']);
    expect([bad.code, bad.stderr]).toEqual([2, 'Error: Test taker id must be a positive integer: "20x1".\n']);
  });

  it('profiles list --fields outside its schema, sync --watch too short', async () => {
    // --out goes with every list now (test/commands/list-options.test.ts); --fields is checked before the stub starts.
    const fields = await runCli(['profiles', 'list', '--fields', 'nope']);
    expect([fields.code, fields.stdout]).toEqual([2, '']);
    expect(fields.stderr).toMatch(/^Error: Unknown field for --fields: "nope"\.\nHint: Available fields: .*career_navigation_url/);
    const watch = await runCli(['sync', '--db', 'x.sqlite', '--watch', '5s']);
    expect([watch.code, watch.stderr]).toEqual([2, 'Error: --watch: the interval must be at least 10 seconds.\n']);
  });
});

describe('help', () => {
  it('an export lists its examples, then its columns and exit codes', async () => {
    const r = await runCli(['scorecard', '--help']);
    expect(r.code).toBe(0);
    expect(r.stdout.indexOf('Examples:')).toBeGreaterThan(0);
    expect(r.stdout.indexOf('CSV columns:')).toBeGreaterThan(r.stdout.indexOf('Examples:'));
  });
});

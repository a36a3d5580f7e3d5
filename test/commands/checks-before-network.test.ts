/**
 * "Every option is checked before any network call" (issue 30): a list (or an
 * export) given a bad option refuses it (exit 2) before it connects to
 * anything, even where it would first look a --team name up. The service here
 * is a TCP server of the test's own, on port 0, that only counts the
 * connections made to it: every case must leave the count at zero.
 */
import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Command, type Option } from 'commander';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { wireEntry } from '../../src/commands/kit/wire.js';
import { COMMANDS } from '../../src/commands/table.js';
import { runCli } from '../helpers/cli.js';

let server: Server;
let connections = 0;
let env: Record<string, string>;
// Made when the file loads: the cases below name it.
const dir = mkdtempSync(join(tmpdir(), 'jobfit-checks-'));

beforeAll(async () => {
  server = createServer((socket) => {
    connections++;
    socket.destroy();
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as { port: number };
  console.log(`counting server on 127.0.0.1:${port}`);
  env = { JOBFIT_BASE_URL: `http://127.0.0.1:${port}/v2`, JOBFIT_API_KEY: 'sk_test_0123456789abcdef01234567', JOBFIT_MAX_RETRIES: '0' };
});

afterAll(async () => {
  await new Promise((done) => server.close(done));
  rmSync(dir, { recursive: true, force: true });
});

/** The bad options every list refuses: --out a folder or in a folder that does not exist, an unknown --fields, a format it cannot print. */
const badOutput = (): string[][] => [
  ['--out', dir],
  ['--out', join(dir, 'missing', 'list.csv')],
  ['--fields', 'no_such_field'],
  ['-o', 'html'],
];

/** Each list command, and the ways it is run before its first request (with --all, with a --team name to look up). */
const LISTS: Array<{ argv: string[]; variants: string[][] }> = [
  { argv: ['users'], variants: [[]] },
  { argv: ['teams'], variants: [[]] },
  { argv: ['templates'], variants: [[]] },
  { argv: ['assessments'], variants: [[]] },
  { argv: ['score-profiles'], variants: [[]] },
  { argv: ['invitations', 'list'], variants: [[], ['--all'], ['--team', 'Sales'], ['--all', '--team', 'Sales']] },
  { argv: ['test-takers', 'list'], variants: [[], ['--all'], ['--team', 'Sales'], ['--all', '--team', 'Sales']] },
  { argv: ['profiles', 'list'], variants: [[], ['--all']] },
];

/** The exports, whose score profile and --team name would be asked of the service first. */
const EXPORTS: Array<{ argv: string[]; bad: string[][] }> = [
  {
    argv: ['scorecard', '--all', '--sp', 'sales-rep', '--team', 'Sales'],
    bad: [['--out', dir], ['--errors', dir], ['--fields', 'no_such_field'], ['-o', 'html']],
  },
  { argv: ['job-fit', '--all', '--team', 'Sales'], bad: [['--out', dir], ['--errors', join(dir, 'missing', 'e.ndjson')], ['--fields', 'no_such_field']] },
  { argv: ['report', '--sp', 'sales-rep', '--team', 'Sales'], bad: [['--out', join(dir, 'missing', 'r.csv')], ['--errors', dir], ['--top', '5', '-o', 'csv']] },
];

/**
 * A bulk invite writes its --errors file only when rows are invalid, after
 * reading the account: its destination is refused before that all the same
 * (here every row is valid, so the file would never even be written). A
 * planted link is one that points at a file the run would overwrite.
 */
const people = join(dir, 'people.csv');
writeFileSync(people, 'First Name,Last Name,Email\nAna,Diaz,ana.diaz@example.com\n');
writeFileSync(join(dir, 'precious.txt'), 'not to be overwritten\n');
symlinkSync(join(dir, 'precious.txt'), join(dir, 'planted.csv'));
const INVITE = ['invite', '--csv', people, '--created-by', 'dana.whitfield@northwind-talent.example'];
const badErrors = (): string[][] => [
  ['--errors', dir],
  ['--errors', join(dir, 'missing', 'errors.csv')],
  ['--errors', join(dir, 'planted.csv')],
  ['--errors', people],
];

const cases = [
  ...LISTS.flatMap(({ argv, variants }) => variants.flatMap((v) => badOutput().map((bad) => [...argv, ...v, ...bad]))),
  ...EXPORTS.flatMap(({ argv, bad }) => bad.map((b) => [...argv, ...b])),
  ...[['--dry-run'], ['--yes']].flatMap((v) => badErrors().map((bad) => [...INVITE, ...v, ...bad])),
];

describe('a bad option is refused before any connection', () => {
  it.each(cases.map((argv) => [argv.join(' ').replaceAll(dir, 'DIR'), argv]))('%s', async (_name, argv) => {
    const before = connections;
    const r = await runCli(argv as string[], { env });
    expect(r.code, r.stderr).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^Error: /);
    expect(connections - before, `${r.stderr} (connections to the counting server)`).toBe(0);
  });

  it('covers every command that lists or exports to --out (a new one joins LISTS or EXPORTS)', async () => {
    const program = new Command('jobfit');
    const never = { context: (): never => { throw new Error('never run'); } };
    for (const entry of COMMANDS) await wireEntry(program, entry, never);
    const withOut: string[] = [];
    const walk = (c: Command, path: string[]) => {
      if (c.commands.length === 0 && c.options.some((o: Option) => o.long === '--out')) withOut.push(path.join(' '));
      for (const sub of c.commands) walk(sub, [...path, sub.name()]);
    };
    walk(program, []);
    // invite's --out is the results file of a bulk run, which checks its files before its first request (test/bulk).
    const covered = [...LISTS.map(({ argv }) => argv.join(' ')), ...EXPORTS.map(({ argv }) => argv[0]), 'invite'];
    expect(withOut.filter((c) => !covered.includes(c))).toEqual([]);
    expect(withOut.length).toBeGreaterThanOrEqual(LISTS.length + EXPORTS.length);
  });
});

/**
 * "Every option is checked before any network call" (issue 30): a list (or an
 * export) given a bad option refuses it (exit 2) before it connects to
 * anything, even where it would first look a --team name up. The service here
 * is a TCP server of the test's own, on port 0, that only counts the
 * connections made to it: every case must leave the count at zero.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Command, type Option } from 'commander';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EMBEDDED_NOTICE } from '../../src/cli/create-context.js';
import { wireEntry } from '../../src/commands/kit/wire.js';
import { COMMANDS } from '../../src/commands/table.js';
import { runCli } from '../helpers/cli.js';

let server: Server;
let connections = 0;
let env: Record<string, string>;
// Made when the file loads: the cases below name it.
const dir = mkdtempSync(join(tmpdir(), 'jobfit-checks-'));

beforeAll(async () => {
  // Not the fault server: it counts raw TCP connections and answers none, below HTTP.
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
/** Runs `argv` with no configuration (the embedded stub): refused with `message` (exit 2), the stub neither started nor given data. */
async function refusedBeforeTheStub(argv: string[], message: RegExp, stdinTTY?: boolean): Promise<void> {
  const configDir = mkdtempSync(join(tmpdir(), 'jobfit-checks-cfg-'));
  try {
    const r = await runCli(argv, { configDir, stdinTTY });
    expect(r.code, r.stderr).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(message);
    expect(r.stderr, 'the embedded stub was started').not.toContain(EMBEDDED_NOTICE);
    expect(existsSync(join(configDir, 'stub')), 'the embedded stub wrote its data').toBe(false);
  } finally {
    rmSync(configDir, { recursive: true, force: true });
  }
}

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

/**
 * A bulk invite with nothing configured runs against the embedded stub, which
 * ctx.client() starts (and says so on stderr). Everything a bulk run can
 * refuse without the service (its options, its input, the files it writes,
 * their journal) is refused before that: the same exit and sentence, with no
 * stub started (no notice, no stub data under the config directory).
 */
describe('bulk invite refuses what needs no service before it starts the embedded stub', () => {
  const bulk = join(dir, 'bulk');
  const at = (name: string) => join(bulk, name);
  const taken: Array<{ release(): void }> = [];
  beforeAll(async () => {
    const { JournalWriter } = await import('../../src/bulk/journal.js');
    const { acquireLock } = await import('../../src/core/lock.js');
    mkdirSync(join(bulk, 'folder'), { recursive: true });
    writeFileSync(at('other.csv'), 'First Name,Last Name,Email\nBo,Lee,bo.lee@example.com\n');
    writeFileSync(at('old.xls'), Buffer.concat([Buffer.from('d0cf11e0a1b11ae1', 'hex'), Buffer.alloc(504)]));
    symlinkSync(join(dir, 'precious.txt'), at('planted.csv'));
    // Results of another input, finished; an unfinished run of this input; a file at a journal's path that is no journal.
    const journal = (out: string, input: string, ended: boolean) => {
      writeFileSync(out, 'row,status\n');
      const jw = new JournalWriter(`${out}.journal.ndjson`);
      jw.begin({ input, header: ['First Name', 'Last Name', 'Email'], rows: 1, at: '2026-11-20T10:00:00.000Z' });
      if (ended) jw.end('2026-11-20T10:01:00.000Z', {});
      jw.close();
    };
    journal(at('others.results.csv'), at('other.csv'), true);
    journal(at('unfinished.results.csv'), people, false);
    // An unfinished run of this input whose file had other columns then.
    const jw = new JournalWriter(at('othercols.results.csv.journal.ndjson'));
    writeFileSync(at('othercols.results.csv'), 'row,status\n');
    jw.begin({ input: people, header: ['Email', 'First Name', 'Last Name'], rows: 1, at: '2026-11-20T10:00:00.000Z' });
    jw.close();
    writeFileSync(at('stranger.results.csv.journal.ndjson'), 'not a journal\n');
    taken.push(acquireLock(at('locked.results.csv'), { command: 'jobfit invite --csv other.csv' }));
  });
  afterAll(() => {
    for (const lock of taken) lock.release();
  });

  const out = (name: string) => ['--out', at(name)];
  const BULK: Array<[string, string[], RegExp, { stdinTTY?: boolean }?]> = [
    ['--dry-run --resume', ['--dry-run', '--resume'], /^Error: --dry-run and --resume do not go together\.$/m],
    ['--dry-run --retry-failed', ['--dry-run', '--retry-failed'], /^Error: --dry-run and --retry-failed do not go together\.$/m],
    ['--resume --retry-failed', ['--resume', '--retry-failed'], /^Error: --resume and --retry-failed do not go together\.$/m],
    ['a missing input', ['--csv', at('nobody.csv')], /^Error: No such file: .*nobody\.csv\.$/m],
    ['an input that is a folder', ['--csv', at('folder')], /^Error: .*folder is a directory, not a CSV file or a workbook\.$/m],
    ['--csv - from a terminal', ['--csv', '-'], /^Error: --csv - reads the file from standard input, but it is a terminal\.$/m, { stdinTTY: true }],
    ['--errors at the results file', [...out('same.csv'), '--errors', at('same.csv')], /^Error: --errors .*same\.csv is the results file of this run/m],
    ['--errors at the journal', [...out('same.csv'), '--errors', at('same.csv.journal.ndjson')], /^Error: --errors .*same\.csv\.journal\.ndjson is the journal of this run/m],
    ['--out at the input', ['--out', people], /^Error: --out .*people\.csv is the input file itself; writing it would destroy the input\.$/m],
    ['--out a folder', ['--out', at('folder')], /^Error: The results file .*folder is a folder; jobfit writes only regular files and left it as it is\.$/m],
    ['--out in a missing folder', ['--out', at('missing/r.csv')], /^Error: Cannot write the results file .*missing\/r\.csv: its folder does not exist\.$/m],
    ['--out a planted link', ['--out', at('planted.csv')], /^Error: The results file .*planted\.csv is a symbolic link; jobfit writes only regular files and left it as it is\.$/m],
    ['--out in use by another run', out('locked.results.csv'), /^Error: .*locked\.results\.csv is in use by process \d+, started .* \(jobfit invite --csv other\.csv\)\.$/m],
    ['--resume with no journal', ['--resume', ...out('none.results.csv')], /^Error: Nothing to resume: there is no journal at .*none\.results\.csv\.journal\.ndjson\.$/m],
    ['--retry-failed with no journal', ['--retry-failed', ...out('none.results.csv')], /^Error: Nothing to retry: there is no journal at /m],
    ["--out holding another input's results", out('others.results.csv'), /^Error: .*others\.results\.csv holds the results of .*other\.csv \(run 2026-11-20T10:00:00\.000Z\)/m],
    ['--out of an unfinished run', out('unfinished.results.csv'), /^Error: An earlier run into .*unfinished\.results\.csv did not finish/m],
    ['--resume of a file with other columns', ['--resume', ...out('othercols.results.csv')], /^Error: The file's columns differ from the interrupted run's \(.*othercols\.results\.csv\.journal\.ndjson\); nothing was written or sent\.$/m],
    ['a journal that is not ours', out('stranger.results.csv'), /^Error: .*stranger\.results\.csv\.journal\.ndjson is not a jobfit journal/m],
    ['--map without =', ['--dry-run', '--map', 'Mail'], /^Error: --map "Mail" must be of the form "Header=field"\.$/m],
    ['--map to no field', ['--dry-run', '--map', 'Mail=mailbox'], /^Error: --map "Mail=mailbox": "mailbox" is not a field\.$/m],
    ['--sheet with a CSV', ['--dry-run', '--sheet', 'People'], /^Error: --sheet is for a workbook \(\.xlsx\); .*people\.csv is read as CSV\.$/m],
    ['an .xls workbook', ['--dry-run', '--csv', at('old.xls')], /^Error: .*old\.xls is an Excel 97-2003 workbook \(\.xls\), which is not read/m],
    ['--phone-country not a country', ['--dry-run', '--phone-country', 'Atlantis'], /^Error: --phone-country "Atlantis" is not a country phone numbers can be read for\.$/m],
    ['--send-via not a channel', ['--dry-run', '--send-via', 'pigeon'], /^Error: --send-via "pigeon" is not understood\.$/m],
  ];

  it.each(BULK)('%s', async (_name, args, message, io = {}) => {
    await refusedBeforeTheStub([...INVITE, ...args], message, io.stdinTTY);
  });
});

/**
 * What a bulk run settles by reading its input's header and first rows
 * (src/bulk/head.ts) is refused before it connects too: an empty file, a
 * header with no rows, a file that is not text (text that is not UTF-8 is
 * read as Windows-1252, as Excel saves it: test/bulk/decode*),  a --sheet the workbook does not have, a header --map or the
 * required columns do not fit. Each is run as a dry run, as a real run
 * against the embedded stub (not started), and as a real run against a
 * configured service (the counting server: no connection). A refused real
 * run writes nothing: results, journal and --errors files that were there
 * are left byte for byte, and no new one (nor a lock) is left behind.
 */
describe('bulk invite refuses what the head of its file settles before it connects', () => {
  const head = join(dir, 'head');
  const at = (name: string) => join(head, name);
  mkdirSync(head, { recursive: true });
  writeFileSync(at('empty.csv'), '');
  writeFileSync(at('blank.csv'), '\n  \n\r\n');
  writeFileSync(at('header-only.csv'), 'First Name,Last Name,Email\n\n');
  writeFileSync(at('image.csv'), Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), Buffer.alloc(64)]));
  writeFileSync(at('no-email.csv'), 'First Name,Last Name,Phone\nNo,Email,+14155550100\n');
  writeFileSync(at('twice.csv'), 'First Name,Last Name,Email,Notes,Notes\nAna,Diaz,ana.diaz@example.com,a,b\n');
  writeFileSync(at('clash.csv'), 'First Name,Last Name,Email,E-mail\nAna,Diaz,ana.diaz@example.com,ana@example.com\n');
  writeFileSync(at('unclosed.csv'), 'First Name,Last Name,Email\n"Ana,Diaz,ana.diaz@example.com\n');
  writeFileSync(at('blank-line-3.csv'), 'Report\nFirst Name,Last Name,Email\n\nAna,Diaz,ana.diaz@example.com\n');
  const workbook = join(import.meta.dirname, '../../fixtures/csv/people.xlsx');

  const HEAD: Array<[string, string[], RegExp]> = [
    ['an empty file', ['--csv', at('empty.csv')], /^Error: .*empty\.csv is empty: there is no header line\.$/m],
    ['a file of blank lines', ['--csv', at('blank.csv')], /^Error: .*blank\.csv is empty: there is no header line\.$/m],
    ['a header with no rows', ['--csv', at('header-only.csv')], /^Error: .*header-only\.csv has a header but no rows\.$/m],
    ['a file that is not text', ['--csv', at('image.csv')], /^Error: .*image\.csv is not a CSV file: it looks like a PNG image\.$/m],
    ['a quoted field never closed', ['--csv', at('unclosed.csv')], /^Error: .*unclosed\.csv has a quoted field that is never closed/m],
    ['--header-row at a blank line', ['--csv', at('blank-line-3.csv'), '--header-row', '3'], /^Error: --header-row 3: line 3 of .*blank-line-3\.csv is blank/m],
    ['--sheet the workbook lacks', ['--csv', workbook, '--sheet', 'Nobody'], /^Error: .*people\.xlsx has no sheet "Nobody"; its sheets are: 1 "Candidates"\.$/m],
    ['--map a column the header lacks', ['--map', 'Cand Mail=email'], /^Error: --map "Cand Mail=email": the file has no column "Cand Mail" \(its header is: "First Name", "Last Name", "Email"\)\.$/m],
    ['no email column', ['--csv', at('no-email.csv')], /^Error: The file has no email column \(its header is: "First Name", "Last Name", "Phone"\)\.$/m],
    ['a column name twice', ['--csv', at('twice.csv')], /^Error: The header has the column "Notes" twice \(columns 4 and 5\)\.$/m],
    ['two columns meaning one field', ['--csv', at('clash.csv')], /^Error: The columns "Email" and "E-mail" both mean email\.$/m],
  ];
  const input = (args: string[]) => (args.includes('--csv') ? args[args.indexOf('--csv') + 1] : people);

  it.each(HEAD)('%s (a dry run, the embedded stub not started)', async (_name, args, message) => {
    await refusedBeforeTheStub([...INVITE, '--dry-run', ...args], message);
  });

  it.each(HEAD)('%s (a real run: no connection, nothing written)', async (name, args, message) => {
    // The results of an earlier, finished run of the same input, and an --errors file: a refusal leaves them as they are.
    const { JournalWriter } = await import('../../src/bulk/journal.js');
    const place = mkdtempSync(join(head, 'run-'));
    const out = join(place, 'r.results.csv');
    const journal = `${out}.journal.ndjson`;
    const errors = join(place, 'errors.csv');
    writeFileSync(out, 'row,status\n1,created\n');
    const jw = new JournalWriter(journal);
    jw.begin({ input: input(args), header: ['First Name', 'Last Name', 'Email'], rows: 1, at: '2026-11-20T10:00:00.000Z' });
    jw.end('2026-11-20T10:01:00.000Z', {});
    jw.close();
    writeFileSync(errors, 'kept\n');
    const before = Object.fromEntries([out, journal, errors].map((f) => [f, readFileSync(f, 'utf8')]));
    const fresh = join(place, 'fresh.results.csv');
    for (const [where, more] of [['the given --out', ['--out', out, '--errors', errors]], ['a new --out', ['--out', fresh]]] as const) {
      const was = connections;
      const r = await runCli([...INVITE, '--yes', ...args, ...more], { env });
      expect(r.code, `${name}, ${where}: ${r.stderr}`).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr).toMatch(message);
      expect(connections - was, `${r.stderr} (connections to the counting server)`).toBe(0);
    }
    for (const [f, text] of Object.entries(before)) expect(readFileSync(f, 'utf8'), f).toBe(text);
    expect(readdirSync(place).sort()).toEqual(['errors.csv', 'r.results.csv', 'r.results.csv.journal.ndjson']);
  });
});

/**
 * An inviter is named by the file's created_by column, --created-by or the
 * profile's invite_defaults.created_by, all known without the service: a
 * file with none of them is refused before the run connects. A profile's
 * default is read from the config (no connection either), and lets the run go on.
 */
describe('bulk invite refuses a file with no inviter before it connects', () => {
  const NO_INVITER = /^Error: No inviter: the file has no created_by column and no --created-by was given \(and the profile has no default inviter\)\./m;

  it('a dry run on the embedded stub: refused, the stub not started', async () => {
    const configDir = mkdtempSync(join(tmpdir(), 'jobfit-checks-cfg-'));
    try {
      const r = await runCli(['invite', '--csv', people, '--dry-run'], { configDir });
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toMatch(NO_INVITER);
      expect(r.stderr, 'the embedded stub was started').not.toContain(EMBEDDED_NOTICE);
      expect(existsSync(join(configDir, 'stub')), 'the embedded stub wrote its data').toBe(false);
    } finally {
      rmSync(configDir, { recursive: true, force: true });
    }
  });

  it('a real run against a configured service: refused, no connection, nothing written', async () => {
    const out = join(dir, 'no-inviter.results.csv');
    const was = connections;
    const r = await runCli(['invite', '--csv', people, '--yes', '--out', out], { env });
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toMatch(NO_INVITER);
    expect(connections - was).toBe(0);
    expect(existsSync(out)).toBe(false);
  });

  it("the profile's default inviter is one: the run goes on to the service", async () => {
    const configDir = mkdtempSync(join(tmpdir(), 'jobfit-checks-cfg-'));
    try {
      const set = await runCli(['config', 'set', 'invite_defaults.created_by', 'dana.whitfield@northwind-talent.example', '--profile', 'work'], { configDir });
      expect(set.code, set.stderr).toBe(0);
      const was = connections;
      // The key and URL from the environment, the defaults from the profile JOBFIT_PROFILE names.
      const r = await runCli(['invite', '--csv', people, '--dry-run'], { configDir, env: { ...env, JOBFIT_PROFILE: 'work' } });
      expect(r.stderr).not.toMatch(/No inviter/);
      expect(connections - was, r.stderr).toBeGreaterThan(0);
    } finally {
      rmSync(configDir, { recursive: true, force: true });
    }
  });
});

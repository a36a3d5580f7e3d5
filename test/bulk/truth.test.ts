/**
 * Bulk invite tells the truth and never destroys a file (against the stub on
 * a loopback port): a conflict with another team is not "exists", the input is
 * never the output, formulas are neutralised (the text kept in the journal),
 * files are owner-only and never written through a link, a journal path that
 * holds something else is refused, one journal keeps every run, the mapping and
 * grouped reasons are shown.
 */
import { existsSync, linkSync, lstatSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { INVITER, readResults, useBulkStub } from './harness.js';

const { h, invite, send } = useBulkStub('jobfit-bulk-truth-');

const csvFile = (name: string, text: string) => {
  const p = join(h.dir, name);
  writeFileSync(p, text);
  return p;
};

describe('a person already invited elsewhere', () => {
  it('is a failed row with the service message and the invitation in the way, not "exists"', async () => {
    const single = await runCli(
      ['invite', '--email', 'taken.elsewhere@example.com', '--first-name', 'Tao', '--last-name', 'Ken', '--created-by', INVITER, '--team', 'Retail Stores', '-o', 'json'],
      { env: h.env },
    );
    expect(single.code, single.stderr).toBe(0);
    const theirs = JSON.parse(single.stdout).id as number;
    const csv = csvFile('other-team.csv', 'First Name,Last Name,Email,Team\nTao,Ken,taken.elsewhere@example.com,Head Office Recruiting\nNew,Person,new.person@example.com,Head Office Recruiting\n');
    const { r, out } = await send(csv, 'other-team', [], 3);
    const rows = readResults(out);
    expect(rows[1]).toMatch(/,1,failed,,,/);
    expect(rows[1]).toContain(`Another team in this account already has an invitation with email taken.elsewhere@example.com: invitation ${theirs} on team Retail Stores`);
    expect(rows[2]).toMatch(/,2,created,\d+,/);
    expect(r.stderr).toContain('1 created, 0 exists, 0 invalid, 1 failed, 0 not sent');
  });

  it('"exists" is this very row, created by an earlier run of the file', async () => {
    const csv = csvFile('again.csv', 'First Name,Last Name,Email\nAg,Ain,ag.ain@example.com\n');
    const first = await send(csv, 'again');
    const id = readResults(first.out)[1].split(',').at(-3);
    const second = await send(csv, 'again');
    expect(readResults(second.out)[1]).toContain(`,1,exists,${id},`);
  });
});

describe('files that are never destroyed', () => {
  it('--out equal to the input, or the input through a hard or symbolic link, is refused (exit 2) and the input is kept', async () => {
    const text = 'First Name,Last Name,Email\nIn,Put,in.put.same@example.com\n';
    const csv = csvFile('same.csv', text);
    const hard = join(h.dir, 'same-hard.csv');
    linkSync(csv, hard);
    const soft = join(h.dir, 'same-soft.csv');
    symlinkSync(csv, soft);
    for (const out of [csv, hard, soft]) {
      const r = await invite(['--csv', csv, '--created-by', INVITER, '--out', out]);
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toMatch(/is the input file itself|symbolic link/);
      expect(readFileSync(csv, 'utf8')).toBe(text);
    }
  });

  it('a symlink at --out or at the journal path is refused; its target is unchanged', async () => {
    const csv = csvFile('links.csv', 'First Name,Last Name,Email\nLi,Nk,li.nk@example.com\n');
    const target = csvFile('precious.txt', 'keep me\n');
    const out = join(h.dir, 'links.results.csv');
    symlinkSync(target, out);
    const r1 = await invite(['--csv', csv, '--created-by', INVITER, '--out', out]);
    expect(r1.code).toBe(2);
    expect(r1.stderr).toContain('is a symbolic link');
    const out2 = join(h.dir, 'links2.results.csv');
    symlinkSync(target, `${out2}.journal.ndjson`);
    const r2 = await invite(['--csv', csv, '--created-by', INVITER, '--out', out2]);
    expect(r2.code).toBe(2);
    expect(r2.stderr).toContain('is a symbolic link');
    expect(readFileSync(target, 'utf8')).toBe('keep me\n');
    expect(existsSync(out2)).toBe(false);
  });

  it('--errors at the results file or the journal of the run is refused before anything is read or sent; the earlier results are kept', async () => {
    const csv = csvFile('errors-at.csv', 'First Name,Last Name,Email\nEr,Rors,er.rors@example.com\nNo,Email,not-an-email\n');
    const { out } = await send(csv, 'errors-at', ['--skip-invalid'], 3);
    const before = readFileSync(out, 'utf8');
    const journal = `${out}.journal.ndjson`;
    const journalBefore = readFileSync(journal, 'utf8');
    for (const [errors, which] of [[out, 'the results file'], [journal, 'the journal']]) {
      for (const more of [[], ['--skip-invalid']]) {
        const r = await invite(['--csv', csv, '--created-by', INVITER, '--out', out, '--errors', errors, ...more]);
        expect(r.code, r.stderr).toBe(2);
        expect(r.stderr).toContain(`Error: --errors ${errors} is ${which} of this run; the one would replace the other.`);
      }
    }
    expect(readFileSync(out, 'utf8')).toBe(before);
    expect(readFileSync(journal, 'utf8')).toBe(journalBefore);
    // A dry run writes no results: its --errors may be where they would go.
    const dry = await invite(['--csv', csv, '--created-by', INVITER, '--dry-run', '--errors', join(h.dir, 'errors-at.results.csv')]);
    expect(dry.code, dry.stderr).toBe(3);
  });

  it('a journal path holding something that is not a journal is refused and left as it is', async () => {
    const csv = csvFile('foreign.csv', 'First Name,Last Name,Email\nFo,Reign,fo.reign@example.com\n');
    const out = join(h.dir, 'foreign.results.csv');
    writeFileSync(`${out}.journal.ndjson`, 'my notes\n');
    for (const more of [[], ['--resume']]) {
      const r = await invite(['--csv', csv, '--created-by', INVITER, '--out', out, ...more]);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain('is not a jobfit journal');
    }
    expect(readFileSync(`${out}.journal.ndjson`, 'utf8')).toBe('my notes\n');
  });

  it('results and journal are created 0600 (umask 022), and finished runs leave one journal, no .done copies', async () => {
    const old = process.umask(0o022);
    try {
      const csv = csvFile('modes.csv', 'First Name,Last Name,Email\nMo,Des,mo.des@example.com\n');
      const { out } = await send(csv, 'modes');
      await send(csv, 'modes');
      expect(statSync(out).mode & 0o777).toBe(0o600);
      expect(statSync(`${out}.journal.ndjson`).mode & 0o777).toBe(0o600);
      expect(readdirSync(h.dir).filter((f) => f.startsWith('modes.results.csv'))).toEqual(['modes.results.csv', 'modes.results.csv.journal.ndjson']);
      const journal = readFileSync(`${out}.journal.ndjson`, 'utf8');
      expect(journal.match(/"t":"begin"/g)).toHaveLength(2);
      expect(journal.match(/"t":"end"/g)).toHaveLength(2);
      expect(lstatSync(out).isFile()).toBe(true);
    } finally {
      process.umask(old);
    }
  });
});

describe('results a spreadsheet opens safely', () => {
  it('formula cells are neutralised as -o csv does (not trimmed into a live one), phones keep their + (spaced, no quote), the text is in the journal', async () => {
    const csv = csvFile(
      'formulas.csv',
      'First Name,Last Name,Email,Phone,Notes,More\n' +
        'Fo,Rmula,fo.rmula@example.com,+14155550100,=1+1," =2+2"\n' +
        'At,Sum,at.sum@example.com,,@SUM(1),+3\n' +
        'Ta,B,ta.b@example.com,,"\t=1+1","\r=HYPERLINK(""http://x"")"\n' +
        '=Neg,Ative,ne.gative@example.com,,-2+3, =2+2\n',
    );
    const { out } = await send(csv, 'formulas');
    const rows = parse(readFileSync(out, 'utf8'), { relax_column_count: true }) as string[][];
    expect(rows).toHaveLength(5);
    // A phone is spaced rather than quoted (src/format/csv.ts): only its +, digits and spaces.
    for (const row of rows) for (const cell of row) if (!/^\+\d+( \d+)+$/.test(cell)) expect(cell, JSON.stringify(cell)).not.toMatch(/^[=+@\t\r-]/);
    expect(rows[1][3]).toBe('+1 415 555 0100');
    expect(rows[1][4]).toBe("'=1+1");
    // Quoted, the space is kept byte for byte (inert); unquoted, the reader trims it and the cell is neutralised.
    expect(rows[1][5]).toBe(' =2+2');
    expect(rows[4][5]).toBe("'=2+2");
    expect(rows[2][4]).toBe("'@SUM(1)");
    expect(rows[2][5]).toBe("'+3");
    expect(rows[4][0]).toBe("'=Neg");
    expect(rows.slice(1).map((r) => r[7])).toEqual(['created', 'created', 'created', 'created']);
    const cells = readFileSync(`${out}.journal.ndjson`, 'utf8')
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l))
      .filter((j) => j.t === 'cell');
    expect(cells).toContainEqual({ t: 'cell', row: 1, col: 4, text: '=1+1' });
    expect(cells).toContainEqual({ t: 'cell', row: 1, col: 3, text: '+14155550100' });
    expect(cells).toContainEqual({ t: 'cell', row: 2, col: 4, text: '@SUM(1)' });
    expect(cells).toContainEqual({ t: 'cell', row: 4, col: 0, text: '=Neg' });
  });
});

describe('what a person reads before sending', () => {
  it('the dry run shows how each header and value was read; "Department" is carried through, not made the team', async () => {
    const csv = csvFile(
      'mapping.csv',
      'Given name,Surname,E-mail,Department,Tests,Team\nMa,Pping,ma.pping@example.com,Finance,Cognitive,Retail Stores\nMo,Re,mo.re@example.com,Sales,Personality; Interests,13\n',
    );
    const r = await invite(['--csv', csv, '--created-by', INVITER, '--dry-run']);
    expect(r.code, r.stderr).toBe(0);
    const map = r.stdout.slice(0, r.stdout.indexOf(`${csv}:`));
    expect(map).toMatch(/"Given name"\s+→ first_name/);
    expect(map).toMatch(/"E-mail"\s+→ email/);
    expect(map).toMatch(/"Department"\s+→ carried through untouched \(looks like team but is not read as it; --map "Department=team" to use it\)/);
    expect(map).toMatch(/"Tests"\s+→ assessments/);
    expect(map).toContain('assessments "Cognitive" → Thinking Skills (7)');
    expect(map).toContain('team "Retail Stores" → Retail Stores (12)');
    expect(map).toContain('team "13" → Distribution Centres (13)');
    // With --map it is the team (and "Finance" is then no team of the account).
    const mapped = await invite(['--csv', csv, '--created-by', INVITER, '--dry-run', '--map', 'Department=team', '--map', 'Team=ignore']);
    expect(mapped.code).toBe(3);
    expect(mapped.stdout).toContain('No team named "Finance" in the account');
  });

  it('many invalid rows are grouped by reason with a few lines each; --errors FILE has them all; a near name is suggested', async () => {
    const lines = ['First Name,Last Name,Email,Team'];
    for (let i = 1; i <= 604; i++) lines.push(`N${i},L${i},bad-email-${i},Retail Stores`);
    for (let i = 1; i <= 30; i++) lines.push(`S${i},T${i},s${i}.near@example.com,Retail Store`);
    lines.push('Ok,Row,ok.row@example.com,Retail Stores');
    const csv = csvFile('many-invalid.csv', `${lines.join('\n')}\n`);
    const errors = join(h.dir, 'many-invalid.errors.csv');
    const r = await invite(['--csv', csv, '--created-by', INVITER, '--dry-run', '--errors', errors]);
    expect(r.code).toBe(3);
    const report = r.stdout.slice(r.stdout.indexOf(`${csv}:`)).trimEnd().split('\n');
    expect(report.length).toBeLessThan(10);
    expect(report[0]).toBe(`${csv}: 635 rows, 1 valid, 634 invalid.`);
    expect(report[1]).toMatch(/^ {2}604 × email: /);
    expect(report[2]).toContain('line 2 (row 1, bad-email-1), line 3 (row 2, bad-email-2), line 4 (row 3, bad-email-3), … 601 more');
    expect(r.stdout).toContain('30 × team: No team named "Retail Store" in the account (did you mean "Retail Stores"?)');
    expect(r.stdout).toContain(`Every invalid row is in ${errors}`);
    const file = readResults(errors);
    expect(file[0]).toBe('First Name,Last Name,Email,Team,line,row,error');
    expect(file).toHaveLength(635);
    expect(file[1]).toMatch(/^N1,L1,bad-email-1,Retail Stores,2,1,email: /);
    expect(statSync(errors).mode & 0o777).toBe(0o600);
  });

  it('the dry run shows control characters of a cell as escapes, never raw', async () => {
    const csv = csvFile('escapes.csv', 'First Name,Last Name,Email,Team\nEs,Cape,es.cape@example.com,"\x1b]0;pwned\x07Retail\u202e"\n');
    const r = await invite(['--csv', csv, '--created-by', INVITER, '--dry-run']);
    expect(r.code).toBe(3);
    expect(r.stdout).toContain('team "\\x1b]0;pwned\\x07Retail\\u202e"');
    expect(r.stdout).not.toMatch(/[\x07\x1b\u202e]/);
  });
});

/**
 * Awkward real-world CSV files through `jobfit invite --csv`, in-process,
 * against the real stub on a loopback port: each is read correctly or refused
 * with one clear sentence and the right exit code.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { expectAllValid, fx, INVITER, readResults, useBulkStub } from './harness.js';

const { h, invite, send } = useBulkStub('jobfit-bulk-files-');

describe('files that are read', () => {
  it.each([
    ['bom.csv', 2],
    ['semicolon.csv', 2],
    ['crlf.csv', 2],
    ['quoted-newlines.csv', 2],
    ['blank-lines.csv', 2],
    ['unknown-columns.csv', 2],
    ['v1-names.csv', 2],
    ['tabs.tsv', 1],
    ['full-name.csv', 2],
    ['sample.csv', 10],
  ])('%s: dry run finds %i valid rows', async (name, rows) => {
    const r = await invite(['--csv', fx(name), '--created-by', INVITER, '--dry-run']);
    expectAllValid(r, rows);
  });

  it('sends a BOM + semicolon + quoted file and keeps unknown columns untouched in input order', async () => {
    const { out } = await send(fx('semicolon.csv'), 'semi');
    const lines = readResults(out);
    expect(lines[0]).toBe('Vorname;Nachname;E-Mail;Team;Notiz;row;status;invitation_id;assessment_url;error');
    expect(lines[1]).toMatch(/^Jürgen;Groß;juergen\.semi@example\.com;12;"Hallo; Welt";1;created;\d+;http/);
    expect(lines[2]).toMatch(/^Anna;Schmidt;anna\.semi@example\.com;Retail Stores;ok;2;created;\d+;http/);
  });

  it('unknown columns are carried through; a formula-looking one is neutralised, its text kept in the journal', async () => {
    const { out } = await send(fx('unknown-columns.csv'), 'unknown');
    const lines = readResults(out);
    expect(lines[0]).toBe('Candidate ID,First Name,Last Name,Email Address,Source,Score,row,status,invitation_id,assessment_url,error');
    expect(lines[1].startsWith("C-1,Una,Known,una.unknown@example.com,LinkedIn,'=1+1,1,created,")).toBe(true);
    expect(readFileSync(`${out}.journal.ndjson`, 'utf8')).toContain('{"t":"cell","row":1,"col":5,"text":"=1+1"}');
  });

  it('v1 names: assign* columns, sendViaSms with a phone, teamId', async () => {
    const { out } = await send(fx('v1-names.csv'), 'v1');
    const id = Number(readResults(out)[1].split(',').at(-3));
    const got = await runCli(['invitations', 'get', String(id), '-o', 'json'], { env: h.env });
    const inv = JSON.parse(got.stdout);
    expect(inv.phone).toBe('+14155550101');
    expect(inv.send_via_sms).toBe(true);
    expect(inv.team.id).toBe(12);
    expect(inv.custom_id).toBe('REQ-1');
    expect(inv.invitation_assessments.map((a: { id: number }) => a.id).sort()).toEqual([6, 8]);
  });

  it('reads the CSV from standard input', async () => {
    const out = join(h.dir, 'stdin.results.csv');
    const csv = 'Given name,Surname,E-mail,Assessments\nIn,Put,in.put@example.com,"6,8"\n';
    const r = await invite(['--csv', '-', '--created-by', INVITER, '--out', out], { stdin: csv });
    expect(r.code, r.stderr).toBe(0);
    expect(readResults(out)[1]).toMatch(/^In,Put,in\.put@example\.com,"6,8",1,created,\d+,/);
  });

  it('--map names a column the aliases do not know', async () => {
    const f = join(h.dir, 'mapped.csv');
    writeFileSync(f, 'Vorname,Nachname,Kontakt\nMap,Ped,map.ped@example.com\n');
    const r1 = await invite(['--csv', f, '--created-by', INVITER, '--dry-run']);
    expect(r1.code).toBe(2);
    expect(r1.stderr).toContain('no email column');
    const r2 = await invite(['--csv', f, '--created-by', INVITER, '--dry-run', '--map', 'Kontakt=email']);
    expect(r2.code, r2.stderr).toBe(0);
  });
});

describe('files that are refused (exit 2, one sentence)', () => {
  it.each([
    ['missing-email.csv', /has no email column/],
    ['duplicate-header.csv', /has the column "Notes" twice \(columns 4 and 5\)/],
    ['alias-clash.csv', /"Email" and "E-mail" both mean email/],
    ['not-csv.json', /is not a CSV file: it looks like JSON/],
    ['not-csv.png', /is not a CSV file: it looks like a PNG image/],
    ['unclosed-quote.csv', /quoted field that is never closed/],
    ['empty.csv', /is empty/],
  ])('%s', async (name, message) => {
    const r = await invite(['--csv', fx(name), '--created-by', INVITER]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
    expect(r.stderr).not.toMatch(/\n\s+at /); // no stack trace
  });

  it('a header with no rows', async () => {
    const r = await invite(['--csv', fx('header-only.csv'), '--created-by', INVITER]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('has a header but no rows');
  });

  it('no such file', async () => {
    const r = await invite(['--csv', join(h.dir, 'nope.csv'), '--created-by', INVITER]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('No such file');
  });

  it('no inviter anywhere', async () => {
    const r = await invite(['--csv', fx('sample.csv'), '--dry-run']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('No inviter');
  });

  it('an unknown inviter is named', async () => {
    const r = await invite(['--csv', fx('sample.csv'), '--dry-run', '--created-by', 'ghost@example.com']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('User not found with email: ghost@example.com');
  });
});

describe('invalid rows', () => {
  it('--dry-run reports every invalid row with line, field and reason, exit 3', async () => {
    const r = await invite(['--csv', fx('invalid-rows.csv'), '--created-by', INVITER, '--dry-run']);
    expect(r.code).toBe(3);
    const out = r.stdout;
    expect(out).toContain('9 rows, 1 valid, 8 invalid');
    expect(out).toContain('line 3 (row 2, nofirst@example.com): first_name: First name is required');
    expect(out).toContain('line 4 (row 3, not-an-email): email: Invalid email address');
    expect(out).toContain('line 5 (row 4, bad.team@example.com): team: No team named "Moon Base" in the account');
    expect(out).toContain('assessments: Choose either Prescreen or other assessments, but not both.');
    expect(out).toContain('phone: Phone is required if sending via text message (SMS)');
    expect(out).toContain('custom_id: Custom ID must be at most 50 characters');
    expect(out).toContain('line 9 (row 8, GOOD.ROW@example.com): email: Duplicate email in the file (first on row 1)');
    expect(out).toContain('line 10 (row 9, bad.phone@example.com): phone: Invalid phone number');
  });

  it('-o json gives the same report as data', async () => {
    const r = await runCli(['-o', 'json', 'invite', '--csv', fx('invalid-rows.csv'), '--created-by', INVITER, '--dry-run'], { env: h.env });
    const doc = JSON.parse(r.stdout);
    expect(doc).toMatchObject({ rows: 9, valid: 1, invalid: 8 });
    expect(doc.invalid_rows[0]).toEqual({ row: 2, line: 3, email: 'nofirst@example.com', errors: [{ field: 'first_name', reason: 'First name is required' }] });
  });

  it('a real run with invalid rows sends nothing (exit 2)', async () => {
    const before = JSON.parse((await runCli(['invitations', 'list', '--email', 'good.row@example.com', '-o', 'json'], { env: h.env })).stdout);
    const r = await invite(['--csv', fx('invalid-rows.csv'), '--created-by', INVITER, '--out', join(h.dir, 'inv.results.csv')]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('8 of 9 rows are invalid; nothing was sent.');
    const after = JSON.parse((await runCli(['invitations', 'list', '--email', 'good.row@example.com', '-o', 'json'], { env: h.env })).stdout);
    expect(after.data.length).toBe(before.data.length);
  });

  it('--skip-invalid sends the valid rows and reports the others in the results (exit 3)', async () => {
    const { out } = await send(fx('invalid-rows.csv'), 'skip', ['--skip-invalid'], 3);
    const lines = readResults(out);
    expect(lines).toHaveLength(10);
    expect(lines[1]).toMatch(/,1,created,\d+,http/);
    expect(lines[2]).toMatch(/,2,invalid,,,first_name: First name is required$/);
    // Re-running is safe: the created row is now "exists", with its id.
    const again = await invite(['--csv', fx('invalid-rows.csv'), '--created-by', INVITER, '--out', out, '--skip-invalid']);
    expect(again.code).toBe(3);
    const id = lines[1].split(',').at(-3);
    expect(readResults(out)[1]).toContain(`,1,exists,${id},http`);
  });
});

describe('on a terminal', () => {
  it('shows progress on stderr and still writes the results', async () => {
    const out = join(h.dir, 'tty.results.csv');
    const csv = join(h.dir, 'tty.csv');
    writeFileSync(csv, 'First Name,Last Name,Email\nTia,Tty,tia.tty@example.com\nTed,Tty,ted.tty@example.com\n');
    const r = await runCli(['invite', '--csv', csv, '--created-by', INVITER, '--out', out], { env: h.env, tty: true });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('2 rows: 2 created');
    expect(readResults(out)).toHaveLength(3);
  });
});

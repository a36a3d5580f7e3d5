/**
 * Issue 44, item 5: the smaller things a new user saw in round three, each
 * mended (or documented) and shown here.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ageText } from '../../src/commands/webhook/verify.js';
import { readPhone } from '../../src/bulk/cells.js';
import { templatesOfTeam } from '../../src/bulk/single.js';
import { NUM } from '../../src/format/number.js';
import { neutraliseCell } from '../../src/format/csv.js';
import { INVITER, readResults, useBulkStub } from '../bulk/harness.js';
import { runCli } from '../helpers/cli.js';

const { h, invite, send } = useBulkStub('jobfit-round3-small-');

describe('phones', () => {
  it('a phone Excel stripped of its + (4915123456789) with Country DE is +4915123456789, not +494915123456789', async () => {
    expect(readPhone('4915123456789', 'DE').value).toBe('+4915123456789');
    // A German number written nationally, with its trunk 0, is read as before.
    expect(readPhone('015123456789', 'DE').value).toBe('+4915123456789');
    expect(readPhone('030 901820', 'DE').value).toBe('+4930901820');
    const csv = join(h.dir, 'stripped.csv');
    writeFileSync(csv, 'First Name,Last Name,Email,Phone,Country\nJan,Stripped,jan.stripped@example.com,4915123456789,DE\n');
    const { out } = await send(csv, 'stripped');
    const id = readResults(out)[1].split(',').at(-3)!;
    const inv = JSON.parse((await runCli(['invitations', 'get', id, '-o', 'json'], { env: h.env })).stdout);
    expect(inv.phone).toBe('+4915123456789');
  });

  it('a number of a possible length in a range libphonenumber does not list: sent by email with a note; refused for an SMS', async () => {
    const csv = join(h.dir, 'unlisted.csv');
    writeFileSync(
      csv,
      'First Name,Last Name,Email,Phone,Country,Send Via\nNew,Range,new.range@example.com,07700 900123,GB,email\nSms,Range,sms.range@example.com,07700 900124,GB,sms\n',
    );
    const dry = await invite(['--csv', csv, '--created-by', INVITER, '--dry-run']);
    expect(dry.code).toBe(3);
    expect(dry.stdout).toContain('2 rows, 1 valid, 1 invalid');
    expect(dry.stdout).toContain('1 row has a phone in a range libphonenumber does not list ("07700 900123")');
    expect(dry.stdout).toContain('sms.range@example.com): phone: 07700 900124 is not in a range of numbers in use');
    const { out } = await send(csv, 'unlisted', ['--skip-invalid'], 3);
    const created = readResults(out)[1];
    expect(created).toMatch(/,created,/);
    const inv = JSON.parse((await runCli(['invitations', 'get', created.split(',').at(-3)!, '-o', 'json'], { env: h.env })).stdout);
    expect(inv.phone).toBe('+447700900123');
  });
});

describe('results files: the user\'s own phone cells', () => {
  it('a phone written with its + is spaced (no leading \' in LibreOffice), a formula still is neutralised', () => {
    expect(neutraliseCell('+44 20 7946 0958')).toBe('+44 20 7946 0958');
    expect(neutraliseCell('+44 (0)20-7946 0958')).toBe('+44 20 7946 0958');
    expect(neutraliseCell('+1.415.555.0100')).toBe('+1 415 555 0100');
    expect(neutraliseCell('+14155550100')).toBe('+1 415 555 0100');
    expect(neutraliseCell('+1+1')).toBe("'+1+1");
    expect(neutraliseCell('+SUM(A1:A9)')).toBe("'+SUM(A1:A9)");
  });

  it('in a bulk run\'s results file', async () => {
    const csv = join(h.dir, 'own-phones.csv');
    writeFileSync(csv, 'First Name,Last Name,Email,Phone\nOwn,Phone,own.phone@example.com,+44 (0)20-7946 0958\n');
    const { out } = await send(csv, 'own-phones');
    const line = readResults(out)[1];
    expect(line).toContain(',+44 20 7946 0958,');
    expect(line).not.toContain("'+44");
  });
});

describe('a single invite', () => {
  it('blocked by another team\'s invitation: the refusal names that invitation', async () => {
    const first = await runCli(['-o', 'json', 'invite', '--first-name', 'Ann', '--last-name', 'Other', '--email', 'ann.other@example.com', '--created-by', INVITER, '--team', '12'], { env: h.env });
    expect(first.code, first.stderr).toBe(0);
    const id = JSON.parse(first.stdout).id;
    const r = await runCli(['invite', '--first-name', 'Ann', '--last-name', 'Other', '--email', 'ann.other@example.com', '--created-by', INVITER, '--team', '13'], { env: h.env });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(new RegExp(`^Error: Another team in this account already has an invitation with email ann\\.other@example\\.com: invitation ${id} on team [^(]+\\(12\\), for Ann Other, created `, 'm'));
    expect(r.stderr).toContain(`jobfit invitations get ${id}`);
  });

  it('the template picker offers the chosen team\'s templates only', () => {
    const t = (id: number, teams: number[]) => ({ id, display_name: `T${id}`, teams: teams.map((x) => ({ id: x, display_name: `team ${x}` })) });
    const account = { templatesById: new Map([[1, t(1, [12])], [2, t(2, [13])], [3, t(3, [12, 13])], [4, t(4, [])]]) } as unknown as Parameters<typeof templatesOfTeam>[0];
    expect(templatesOfTeam(account, 12).map((x) => x.id)).toEqual([1, 3, 4]);
    expect(templatesOfTeam(account, 13).map((x) => x.id)).toEqual([2, 3, 4]);
    expect(templatesOfTeam(account, undefined).map((x) => x.id)).toEqual([1, 2, 3, 4]);
  });
});

describe('grammar and numbers', () => {
  it('"1 row", not "1 rows", in the dry run and the summary', async () => {
    const csv = join(h.dir, 'one.csv');
    writeFileSync(csv, 'First Name,Last Name,Email\nOne,Row,one.row@example.com\n');
    const dry = await invite(['--csv', csv, '--created-by', INVITER, '--dry-run']);
    expect(dry.stdout).toContain(': 1 row, 1 valid, 0 invalid.');
    const { r } = await send(csv, 'one');
    expect(r.stderr).toMatch(/^1 row: 1 created/m);
  });

  it('counts have thousands separators; webhook verify says a long age in days', () => {
    expect(NUM.count(1942, 'test taker')).toBe('1,942 test takers');
    expect(NUM.count(1, 'test taker')).toBe('1 test taker');
    expect(ageText(42)).toBe('42 s');
    expect(ageText(600)).toBe('10 min');
    expect(ageText(28_596_648)).toBe('331 days');
  });

  it('--dry-run alone says "applies"; a single invite takes it now', async () => {
    const r = await runCli(['invite', '--resume']);
    expect(r.stderr).toContain('--resume only applies with --csv FILE');
  });
});

describe('the mode line', () => {
  it('with JOBFIT_API_KEY set and a profile present, it names JOBFIT_API_KEY (as whoami does), not "profile default"', async () => {
    const configDir = join(h.dir, 'cfg-mode');
    const set = await runCli(['config', 'set', 'base_url', h.stub.url], { configDir });
    expect(set.code, set.stderr).toBe(0);
    const r = await runCli(['-v', 'teams', '-o', 'json'], { configDir, env: { JOBFIT_API_KEY: h.env.JOBFIT_API_KEY } });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/^\[live mode\] JOBFIT_API_KEY \(profile default for the rest\) · http/m);
    expect(r.stderr).not.toMatch(/^\[live mode\] profile default/m);
  });
});

describe('documentation', () => {
  it('README says why npm install -g . warns about prepare; docs/library.md says Node 22.12; docs/sync.md\'s weekly query needs no %G/%V', async () => {
    const { readFileSync } = await import('node:fs');
    const doc = (p: string) => readFileSync(new URL(`../../${p}`, import.meta.url), 'utf8');
    expect(doc('README.md')).toMatch(/may warn that the package runs an install script\s+\(`prepare`\)/);
    expect(doc('docs/library.md')).not.toContain('20.19');
    expect(doc('docs/library.md')).toContain('Node 22.12');
    const sync = doc('docs/sync.md');
    const weekly = /Completions per ISO 8601 week[\s\S]*?```sql\n([\s\S]*?)```/.exec(sync)![1];
    expect(weekly).not.toMatch(/%G|%V/);
    // The same week as strftime('%G-W%V') (SQLite 3.46+) for every day of 2020-2027.
    const { DatabaseSync } = await import('node:sqlite');
    const db = new DatabaseSync(':memory:');
    db.exec('CREATE TABLE assigned_assessments (test_taker_id INTEGER, completed_at TEXT)');
    const ins = db.prepare('INSERT INTO assigned_assessments VALUES (?, ?)');
    for (let t = Date.UTC(2020, 0, 1); t < Date.UTC(2028, 0, 1); t += 86_400_000) ins.run(1, new Date(t + 3_600_000).toISOString());
    const ours = db.prepare(weekly).all() as Array<{ week: string; completions: number }>;
    const iso = db.prepare("SELECT strftime('%G-W%V', completed_at) AS week, COUNT(*) AS completions FROM assigned_assessments GROUP BY week ORDER BY week DESC").all() as Array<{ week: string; completions: number }>;
    expect(ours.map((r) => [r.week, r.completions])).toEqual(iso.map((r) => [r.week, r.completions]));
  });

  it('help output names -o html', async () => {
    const r = await runCli(['help', 'output']);
    expect(r.stdout).toMatch(/-o html\s+a self-contained page/);
  });
});

describe('the job-fit page', () => {
  it('explains RIASEC, lists the ranked interests first, tells repeated job families apart, and prints long tables without blank pages', async () => {
    const { createJobFitHtmlWriter } = await import('../../src/format/html/job-fit.js');
    const { memoryIO } = await import('../helpers/io.js');
    const report = (await import('../format/job-fit-report.json', { with: { type: 'json' } })).default as Record<string, unknown> & { top_fit_occupations: Array<Record<string, unknown>> };
    const occ = report.top_fit_occupations.map((o, i) => (i === 1 ? { ...o, job_family_name: report.top_fit_occupations[0].job_family_name } : o));
    const m = memoryIO({ tty: false });
    const w = createJobFitHtmlWriter({ io: m.io, globals: { color: false, quiet: true, verbose: false } }, { count: 1, generatedAt: new Date(0), source: 's' }, () => []);
    w.write({ ...report, top_fit_occupations: occ });
    await w.end();
    const html = m.stdout();
    expect(html).toContain('<b>R</b> Realistic');
    expect(html).toContain('not the score the service ranks by');
    // The chart's rows: #1, #2, #3 first.
    const ranks = [...html.matchAll(/>#(\d)</g)].map((x) => Number(x[1]));
    expect(ranks.slice(0, 3)).toEqual([1, 2, 3]);
    // The two rows of one name each say their zone and number.
    const name = String(occ[0].job_family_name);
    expect(html.split(`${name} <span class="note">(zone `).length - 1).toBe(2);
    expect(html).toMatch(/@media print\{[^}]*[\s\S]*figure:has\(table\.occupations\)[^{]*\{break-inside:auto/);
    expect(html).toContain('tbody tr:nth-child(-n+3){break-before:avoid');
  });
});

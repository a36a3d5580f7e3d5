/**
 * Issue 44, item 5: what an invite says: a single invite refused by another
 * team's invitation, the template picker, counts and their grammar, and the
 * mode line naming where the key came from.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ageText } from '../../src/commands/webhook/verify.js';
import { templatesOfTeam } from '../../src/bulk/single.js';
import { NUM } from '../../src/format/number.js';
import { INVITER, useBulkStub } from '../bulk/harness.js';
import { runCli } from '../helpers/cli.js';

const { h, invite, send } = useBulkStub('jobfit-round3-small-');

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

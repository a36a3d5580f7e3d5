import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { scoreProfileByShortName } from '../../src/stub/catalog-content.js';
import { loadSeed, parseSeed, planInvitations, seedFile, seedProblems } from '../../src/stub/seed.js';

const tmp = mkdtempSync(join(tmpdir(), 'jobfit-seed-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('seed', () => {
  const seed = loadSeed();

  it('loads and is consistent', () => {
    expect(seedProblems(seed)).toEqual([]);
    expect(seed.accounts.map((a) => a.id)).toEqual([1, 2]);
    const keys = seed.accounts.flatMap((a) => [a.live_key, a.test_key]);
    expect(new Set(keys).size).toBe(keys.length);
    for (const a of seed.accounts) {
      expect(a.live_key).toMatch(/^sk_live_[0-9a-f]{32}$/);
      expect(a.test_key).toMatch(/^sk_test_[0-9a-f]{32}$/);
      expect(a.webhook_endpoint).toBeNull();
      expect(a.webhooks_enabled).toBe(false);
      expect(a.teams.every((t) => t.webhooks_enabled === false)).toBe(true);
      for (const sp of a.score_profiles) expect(scoreProfileByShortName(sp)).toBeDefined();
    }
    expect(seed.accounts[0].teams).toHaveLength(4);
    expect(seed.accounts[1].teams).toHaveLength(2);
    expect(seed.accounts[1].score_profiles.length).toBeLessThan(seed.accounts[0].score_profiles.length);
    const teamIds = seed.accounts.flatMap((a) => a.teams.map((t) => t.id));
    expect(new Set(teamIds).size).toBe(teamIds.length);
  });

  it('has users with all defaults, some, and none in each account', () => {
    for (const a of seed.accounts) {
      const full = a.users.find(
        (u) =>
          u.default_team_id !== null &&
          u.default_assessments.length > 0 &&
          u.default_invitation_email_template_id !== null &&
          u.default_congrats_email_template_id !== null &&
          u.default_scheduling_link !== null &&
          u.notify_on_completion,
      );
      const some = a.users.find((u) => u.default_team_id !== null && u.default_invitation_email_template_id === null);
      const none = a.users.find((u) => u.default_team_id === null && u.default_assessments.length === 0);
      expect(full && some && none).toBeTruthy();
      for (const t of ['invitation', 'congrats'] as const) expect(a.email_templates.some((x) => x.template_type === t)).toBe(true);
    }
  });

  it('finds the seed beside the stub from source, dist, dist/chunks and dist/lib (the build copies it to dist/stub)', () => {
    const root = join(import.meta.dirname, '../..');
    expect(seedFile()).toBe(join(root, 'src', 'stub', 'seed.json'));
    const dist = mkdtempSync(join(tmpdir(), 'jobfit-seed-dist-'));
    try {
      mkdirSync(join(dist, 'dist', 'stub'), { recursive: true });
      mkdirSync(join(dist, 'dist', 'chunks'));
      mkdirSync(join(dist, 'dist', 'lib'));
      writeFileSync(join(dist, 'dist', 'stub', 'seed.json'), '{}');
      for (const from of ['dist', 'dist/chunks', 'dist/lib']) expect(seedFile(join(dist, from))).toBe(join(dist, 'dist', 'stub', 'seed.json'));
    } finally {
      rmSync(dist, { recursive: true, force: true });
    }
    expect(() => seedFile(tmp)).toThrow(/stub\/seed\.json/);
  });

  it('rejects malformed and inconsistent seeds with one sentence', () => {
    const raw = JSON.parse(readFileSync(seedFile(), 'utf8'));
    const badKey = structuredClone(raw);
    badKey.accounts[0].live_key = 'sk_live_nothex';
    expect(() => parseSeed(badKey)).toThrow(/accounts\.0\.live_key/);
    const dupKey = structuredClone(raw);
    dupKey.accounts[1].test_key = dupKey.accounts[0].test_key;
    expect(() => parseSeed(dupKey)).toThrow(/Duplicate API key/);
    const badTeam = structuredClone(raw);
    badTeam.accounts[0].email_templates[0].team_ids.push(21);
    expect(() => parseSeed(badTeam)).toThrow(/unknown team 21/);
    const badProfile = structuredClone(raw);
    badProfile.accounts[1].people.teams[0].target_score_profiles = ['sales-rep'];
    expect(() => parseSeed(badProfile)).toThrow(/not enabled/);
    const extra = structuredClone(raw);
    extra.accounts[0].surprise = true;
    expect(() => parseSeed(extra)).toThrow(/Invalid seed/);
    mkdirSync(join(tmp, 'f'));
    writeFileSync(join(tmp, 'f', 'seed.json'), JSON.stringify(raw));
    expect(loadSeed(join(tmp, 'f', 'seed.json'))).toEqual(seed);
  });

  it('plans invitations deterministically with the intended mix', () => {
    const [a1, a2] = seed.accounts;
    const p1 = planInvitations(a1);
    const p2 = planInvitations(a2);
    expect(planInvitations(a1)).toEqual(p1);
    expect(p1.length).toBeGreaterThanOrEqual(150);
    expect(p2.length).toBeGreaterThanOrEqual(15);
    const emails = [...p1, ...p2].map((p) => p.person.email);
    expect(new Set(emails).size).toBe(emails.length);
    for (const t of a1.teams) expect(p1.filter((p) => p.team_id === t.id).length).toBeGreaterThan(0);
    expect(p1.filter((p) => p.team_id === 11).length).toBeGreaterThan(50); // one team alone passes the cap
    for (const plan of [p1, p2]) {
      const times = plan.map((p) => Date.parse(p.created_at));
      expect([...times].sort((x, y) => x - y)).toEqual(times);
      const states = new Set(plan.map((p) => p.state));
      for (const s of ['pending', 'accepted', 'partial', 'complete']) expect(states.has(s as never)).toBe(true);
      for (const p of plan) {
        expect(p.accepted_at === null).toBe(p.state === 'pending');
        if (p.accepted_at) expect(Date.parse(p.accepted_at)).toBeGreaterThan(Date.parse(p.created_at));
        if (p.state === 'complete') expect(p.completed.map((c) => c.test_id).sort()).toEqual([...p.assessments].sort());
        if (p.state === 'partial') {
          expect(p.completed.length).toBeGreaterThan(0);
          expect(p.completed.length).toBeLessThan(p.assessments.length);
        }
        if (p.state === 'pending' || p.state === 'accepted') expect(p.completed).toEqual([]);
        for (const c of p.completed) expect(p.assessments).toContain(c.test_id);
        if (p.send_via_sms) expect(p.person.phone).not.toBeNull();
        expect(p.invitation_email_template_id).not.toBeNull();
      }
    }
    // Nothing happens after the seed's end (a generated seed ends "now"): the stub never writes a future time.
    for (const [a, plan] of [[a1, p1], [a2, p2]] as const) {
      const end = Date.parse(a.people.created_to);
      for (const p of plan) {
        for (const t of [p.accepted_at, ...p.completed.map((c) => c.completed_at)]) if (t) expect(Date.parse(t)).toBeLessThanOrEqual(end);
        const chain = [p.accepted_at, ...p.completed.map((c) => c.completed_at)].filter((t): t is string => t !== null).map(Date.parse);
        expect([...chain].sort((x, y) => x - y)).toEqual(chain);
      }
    }
    // Enough finished Personality + Interests for job-fit reports.
    const withReport = p1.filter((p) => [6, 8].every((t) => p.completed.some((c) => c.test_id === t)));
    expect(withReport.length).toBeGreaterThan(20);
  });
});

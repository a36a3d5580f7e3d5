/**
 * The rows a sync writes, built from service objects (src/sync/rows.ts): ids
 * read whether sent as numbers or numeric strings, absent fields as NULL, the
 * `mode` left out of `raw`, score columns from the catalog, and the `basis`
 * that moves when a test taker completes something.
 */
import { describe, expect, it } from 'vitest';
import { invitationRow, jobFitRows, profileRow, scorecardRow, teamRow, testTakerRows, userRow } from '../../src/sync/rows.js';

describe('teams and users', () => {
  it('a team row holds its counts; an id as a numeric string is the same id', () => {
    expect(teamRow({ id: '3', display_name: 'Sales', users_count: 2, invitations_count: 10, test_takers_count: 'x' })).toEqual({
      id: 3,
      display_name: 'Sales',
      users_count: 2,
      invitations_count: 10,
      test_takers_count: null,
    });
  });

  it('a user row keys its defaults by id and keeps the object without its mode', () => {
    const row = userRow({ id: 5, first_name: 'Ada', default_team: { id: '3' }, default_invitation_email_template: null, mode: 'live' });
    expect(row).toMatchObject({ id: 5, first_name: 'Ada', last_name: null, default_team_id: 3, default_invitation_email_template_id: null });
    expect(JSON.parse(String(row.raw))).toEqual({ id: 5, first_name: 'Ada', default_team: { id: '3' }, default_invitation_email_template: null });
  });

  it('an id that is not one throws (the run counts an item error)', () => {
    expect(() => teamRow({ id: 'three' })).toThrow(/not an id/);
    expect(() => userRow({ id: 5, default_team: { id: -1 } })).toThrow(/not an id/);
  });
});

describe('invitationRow', () => {
  it('flags as 0/1, references as ids, assessments as a list, with the list hash and basis given', () => {
    const row = invitationRow(
      {
        id: 7,
        send_via_email: true,
        send_via_sms: false,
        team: { id: 3 },
        invitation_assessments: [{ id: 6 }, { id: '8' }],
        target_score_profile: { short_name: 'sales-rep' },
        test_taker_id: '70',
        mode: 'test',
      },
      'hash',
      'basis',
    );
    expect(row).toMatchObject({ id: 7, send_via_email: 1, send_via_sms: 0, team_id: 3, assessment_ids: '6,8', target_score_profile: 'sales-rep', test_taker_id: 70, accepted_at: null, list_hash: 'hash', basis: 'basis' });
    expect(JSON.parse(String(row.raw))).not.toHaveProperty('mode');
  });
});

describe('testTakerRows', () => {
  const t = {
    id: 70,
    invitation_id: 7,
    assigned_assessments: [
      { id: 1, assessment: { id: 6, display_name: 'Personality', short_name: 'personality' }, completed_at: '2026-01-02T00:00:00Z', language: 'en' },
      { id: 2, assessment: { id: 8, display_name: 'Interests' }, completed_at: null },
    ],
  };

  it('one row per assigned assessment in order; what is complete and what is open', () => {
    const { taker, assessments } = testTakerRows(t, 3, 'h');
    expect(assessments.map((a) => [a.id, a.position, a.assessment_id, a.completed_at])).toEqual([
      [1, 0, 6, '2026-01-02T00:00:00Z'],
      [2, 1, 8, null],
    ]);
    expect(taker).toMatchObject({ id: 70, invitation_id: 7, team_id: 3, completed_tests: '6', assessments_open: 1, list_hash: 'h' });
  });

  it('the basis holds the list hash and moves when an assessment is completed', () => {
    const before = testTakerRows(t, 3, 'h').taker.basis;
    expect(String(before).startsWith('h.')).toBe(true);
    const done = { ...t, assigned_assessments: t.assigned_assessments.map((a) => ({ ...a, completed_at: '2026-01-03T00:00:00Z' })) };
    const after = testTakerRows(done, 3, 'h').taker;
    expect(after.basis).not.toBe(before);
    expect(after).toMatchObject({ completed_tests: '6,8', assessments_open: 0 });
    expect(testTakerRows(t, 3, 'h').taker.basis).toBe(before);
  });
});

describe('results', () => {
  it('a scorecard fills the catalog columns it names, NULL for the rest; unknown short names stay in raw only', () => {
    const card = {
      score_profile: { id: 2 },
      fitscore_raw: 71.5,
      scores: { personality_traits: [{ short_name: 'agree', test_taker_score: 6, facets: [{ short_name: 'agree-comp', test_taker_score: 5 }] }, { short_name: 'brand-new', test_taker_score: 9 }] },
    };
    const row = scorecardRow(card, 70, 'sales-rep', 'b');
    expect(row).toMatchObject({ test_taker_id: 70, score_profile: 'sales-rep', score_profile_id: 2, fitscore_raw: 71.5, agree: 6, agree_comp: 5, think: null, basis: 'b' });
    expect(row).not.toHaveProperty('brand_new');
    expect(String(row.raw)).toContain('brand-new');
  });

  it('a job-fit report keeps the ranked occupations only', () => {
    const { report, occupations } = jobFitRows({ invitation_id: 7, riasec_profile: 'SEC', top_fit_occupations: [{ rank: 1, job_family_name: 'Sales' }, { job_family_name: 'no rank' }] }, 70, 'b');
    expect(report).toMatchObject({ test_taker_id: 70, invitation_id: 7, riasec_profile: 'SEC', basis: 'b' });
    expect(occupations).toEqual([{ test_taker_id: 70, rank: 1, job_family_number: null, job_family_name: 'Sales', job_family_job_zone: null, job_fit_percentage: null, job_fit_star_rating: null }]);
  });

  it('a career navigation profile row names its test taker and its plan', () => {
    expect(profileRow({ id: 'cnp-1', exercises: { targetJobName: 'Nurse' }, plan_job_1: { jobName: 'Nurse', onetCode: '29-1141' } }, 70)).toMatchObject({
      id: 'cnp-1',
      test_taker_id: 70,
      target_job_name: 'Nurse',
      plan_job_name: 'Nurse',
      plan_job_onet_code: '29-1141',
      strengths_career_interests: null,
    });
  });
});

/**
 * The rows a sync writes, built from what the service sent: one function per
 * table (or per table and its children), no I/O, so each mapping is unit
 * tested on its own (test/sync/rows.test.ts). An id that cannot be read
 * (src/api/ids.ts) throws: the caller counts that record as an item error.
 * `listHash` is here too: the fingerprint of an invitation's list item that
 * the plan (src/sync/plan.ts) compares with what the database stored.
 */
import { createHash } from 'node:crypto';
import { readId } from '../api/ids.js';
import { scoreEntries } from '../export/scorecard-rows.js';
import { SCORE_COLUMNS, scoreColumn } from './schema.js';
import type { Row } from './store.js';

export type Json = Record<string, unknown>;

export const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);
const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);
const bool = (v: unknown): number | null => (typeof v === 'boolean' ? (v ? 1 : 0) : null);
/** An id that may be absent (null); present, it is an integer or a numeric string, or an error (src/api/ids.ts). */
export const optId = (v: unknown): number | null => (v === null || v === undefined ? null : readId(v));
export const refId = (v: unknown): number | null => optId((v as Json | null)?.id);
export const obj = (v: unknown): Json => (v && typeof v === 'object' ? (v as Json) : {});

/**
 * 16 hex digits of the SHA-1 of `v`'s JSON. Written from the first 8 bytes
 * of the digest, not sliced from its 40 digits: a slice keeps the whole
 * string alive, and the plan holds one of these per list item (100,000s).
 */
function hash(v: unknown): string {
  return createHash('sha1').update(JSON.stringify(v)).digest().toString('hex', 0, 8);
}

/**
 * The fields of an invitation list item the reference promises, in a fixed
 * order: the invitation object holds them too, so an invitation fetched on
 * its own (a webhook event) hashes the same as its list item.
 */
export function listHash(i: Json): string {
  const team = obj(i.team);
  const account = obj(i.account);
  return hash([
    i.id, i.first_name, i.last_name, i.email, i.created_at, i.accepted_at, i.assessment_url, i.test_taker_id, i.custom_id, i.person_id,
    team.id, team.display_name, account.id, account.display_name,
  ].map((v) => v ?? null));
}

export function teamRow(t: Json): Row {
  return { id: readId(t.id), display_name: str(t.display_name), users_count: num(t.users_count), invitations_count: num(t.invitations_count), test_takers_count: num(t.test_takers_count) };
}

export function userRow(u: Json): Row {
  return {
    id: readId(u.id),
    first_name: str(u.first_name),
    last_name: str(u.last_name),
    email: str(u.email),
    default_team_id: refId(u.default_team),
    default_invitation_email_template_id: refId(u.default_invitation_email_template),
    default_congrats_email_template_id: refId(u.default_congrats_email_template),
    default_scheduling_link: str(u.default_scheduling_link),
    raw: JSON.stringify(withoutMode(u)),
  };
}

function withoutMode(o: Json): Json {
  const { mode: _mode, ...rest } = o;
  return rest;
}

export function invitationRow(i: Json, listHash: string, basis: string): Row {
  const assessments = Array.isArray(i.invitation_assessments) ? i.invitation_assessments.map(refId).filter((x) => x !== null) : [];
  return {
    id: readId(i.id),
    created_at: str(i.created_at),
    accepted_at: str(i.accepted_at),
    first_name: str(i.first_name),
    last_name: str(i.last_name),
    email: str(i.email),
    phone: str(i.phone),
    send_via_email: bool(i.send_via_email),
    send_via_sms: bool(i.send_via_sms),
    custom_id: str(i.custom_id),
    person_id: str(i.person_id),
    ref_text: str(i.ref_text),
    team_id: refId(i.team),
    account_id: refId(i.account),
    invited_by_user_id: refId(i.invited_by_user),
    invitation_email_template_id: refId(i.invitation_email_template),
    congrats_email_template_id: refId(i.congrats_email_template),
    send_congrats_notification: bool(i.send_congrats_notification),
    target_score_profile: str(obj(i.target_score_profile).short_name),
    assessment_ids: assessments.join(','),
    assessment_url: str(i.assessment_url),
    scorecard_url: str(i.scorecard_url),
    job_fit_summary_url: str(i.job_fit_summary_url),
    career_options_spotlight_url: str(i.career_options_spotlight_url),
    career_navigation_url: str(i.career_navigation_url),
    test_taker_id: optId(i.test_taker_id),
    career_navigation_profile_id: str(i.career_navigation_profile_id),
    raw: JSON.stringify(withoutMode(i)),
    list_hash: listHash,
    basis,
  };
}

export function testTakerRows(t: Json, teamId: number | null, listHash: string): { taker: Row; assessments: Row[] } {
  const takerId = readId(t.id);
  const assigned = (Array.isArray(t.assigned_assessments) ? t.assigned_assessments : []).map(obj);
  const assessments: Row[] = assigned
    .map((a, position) => ({
      id: readId(a.id),
      test_taker_id: takerId,
      position,
      assessment_id: refId(a.assessment),
      assessment_name: str(obj(a.assessment).display_name),
      assessment_short_name: str(obj(a.assessment).short_name),
      completed_at: str(a.completed_at),
      language: str(a.language),
    }));
  const completed = [...new Set(assessments.filter((a) => a.completed_at !== null).map((a) => Number(a.assessment_id)))].sort((a, b) => a - b);
  const state = assessments.map((a) => `${a.id}:${a.assessment_id}:${a.completed_at ?? ''}`).join(',');
  return {
    taker: {
      id: takerId,
      invitation_id: optId(t.invitation_id),
      team_id: teamId,
      person_id: str(t.person_id),
      custom_id: str(t.custom_id),
      phone: str(t.phone),
      scorecard_url: str(t.scorecard_url),
      job_fit_summary_url: str(t.job_fit_summary_url),
      career_navigation_url: str(t.career_navigation_url),
      career_navigation_profile_id: str(t.career_navigation_profile_id),
      completed_tests: completed.join(','),
      assessments_open: assessments.filter((a) => a.completed_at === null).length,
      raw: JSON.stringify(withoutMode(t)),
      list_hash: listHash,
      // What results depend on: the person's details (the list item) and what they completed.
      basis: `${listHash}.${hash(state)}`,
    },
    assessments,
  };
}

export function scorecardRow(c: Json, takerId: number, sp: string, basis: string): Row {
  const row: Row = {
    test_taker_id: takerId,
    score_profile: sp,
    score_profile_id: refId(c.score_profile),
    invitation_id: optId(c.invitation_id),
    custom_id: str(c.custom_id),
    person_id: str(c.person_id),
    first_name: str(c.first_name),
    last_name: str(c.last_name),
    email: str(c.email),
    phone: str(c.phone),
    fitscore_raw: num(c.fitscore_raw),
    five_star_score: num(c.five_star_score),
    job_fit_percentage: num(c.job_fit_percentage),
    riasec_profile: str(c.riasec_profile),
  };
  for (const name of SCORE_NAMES) row[name] = null;
  // Short names a newer service adds stay in the raw JSON only.
  for (const e of scoreEntries(c)) {
    const col = scoreColumn(e.short_name);
    if (SCORE_NAMES.has(col)) row[col] = e.score;
  }
  row.raw = JSON.stringify(withoutMode(c));
  row.basis = basis;
  return row;
}

const SCORE_NAMES: ReadonlySet<string> = new Set(SCORE_COLUMNS);

export function jobFitRows(r: Json, takerId: number, basis: string): { report: Row; occupations: Row[] } {
  const occupations = (Array.isArray(r.top_fit_occupations) ? r.top_fit_occupations : [])
    .map(obj)
    .filter((x) => num(x.rank) !== null)
    .map((x) => ({
      test_taker_id: takerId,
      rank: num(x.rank),
      job_family_number: str(x.job_family_number),
      job_family_name: str(x.job_family_name),
      job_family_job_zone: num(x.job_family_job_zone),
      job_fit_percentage: num(x.job_fit_percentage),
      job_fit_star_rating: num(x.job_fit_star_rating),
    }));
  return {
    report: { test_taker_id: takerId, invitation_id: optId(r.invitation_id), riasec_profile: str(r.riasec_profile), raw: JSON.stringify(withoutMode(r)), basis },
    occupations,
  };
}

export function profileRow(p: Json, takerId: number): Row {
  return {
    id: str(p.id),
    test_taker_id: takerId,
    person_id: str(p.person_id),
    career_navigation_url: str(p.career_navigation_url),
    strengths_career_interests: str(obj(p.exercises).strengthsCareerInterests),
    target_job_name: str(obj(p.exercises).targetJobName),
    plan_job_name: str(obj(p.plan_job_1).jobName),
    plan_job_onet_code: str(obj(p.plan_job_1).onetCode),
    raw: JSON.stringify(withoutMode(p)),
  };
}

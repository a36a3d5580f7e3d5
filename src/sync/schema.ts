/**
 * The sync database's schema: tables that mirror the service (docs/sync.md)
 * plus the bookkeeping of sync itself (sync_meta, sync_lock, sync_runs).
 *
 * Versioned: `sync_meta.schema_version` says which MIGRATIONS have been
 * applied. A run applies the missing ones forward, each in its own
 * transaction; a database whose version is above SCHEMA_VERSION was written
 * by a newer jobfit and is refused untouched.
 *
 * Mirror tables hold no clock of ours (no "synced at"): two databases synced
 * from the same service state are equal row for row, which is what the
 * kill -9 test compares. `basis` columns record the state a row was fetched
 * at; they decide what the next run can skip (src/sync/plan.ts).
 */
import { CATALOG_SHORT_NAMES } from '../api/catalog.js';

/** `think-read` → `think_read`: dimension short names as SQL column names. */
export function scoreColumn(shortName: string): string {
  return shortName.replace(/[^A-Za-z0-9]/g, '_').toLowerCase();
}

export const SCORE_COLUMNS: readonly string[] = CATALOG_SHORT_NAMES.map(scoreColumn);

const V1 = `
CREATE TABLE sync_lock (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  pid INTEGER NOT NULL,
  host TEXT NOT NULL,
  started_at TEXT NOT NULL,
  heartbeat_at TEXT NOT NULL
);
CREATE TABLE sync_runs (
  id INTEGER PRIMARY KEY,
  started_at TEXT NOT NULL,
  finished_at TEXT,
  status TEXT NOT NULL,
  full_sync INTEGER NOT NULL,
  requests INTEGER NOT NULL DEFAULT 0,
  requests_by_kind TEXT NOT NULL DEFAULT '{}',
  rows_inserted INTEGER NOT NULL DEFAULT 0,
  rows_updated INTEGER NOT NULL DEFAULT 0,
  errors INTEGER NOT NULL DEFAULT 0,
  message TEXT
);
CREATE TABLE teams (
  id INTEGER PRIMARY KEY,
  display_name TEXT,
  users_count INTEGER,
  invitations_count INTEGER,
  test_takers_count INTEGER
);
CREATE TABLE users (
  id INTEGER PRIMARY KEY,
  first_name TEXT,
  last_name TEXT,
  email TEXT,
  default_team_id INTEGER,
  default_invitation_email_template_id INTEGER,
  default_congrats_email_template_id INTEGER,
  default_scheduling_link TEXT,
  raw TEXT NOT NULL
);
CREATE TABLE invitations (
  id INTEGER PRIMARY KEY,
  created_at TEXT,
  accepted_at TEXT,
  first_name TEXT,
  last_name TEXT,
  email TEXT,
  phone TEXT,
  send_via_email INTEGER,
  send_via_sms INTEGER,
  custom_id TEXT,
  person_id TEXT,
  ref_text TEXT,
  team_id INTEGER,
  account_id INTEGER,
  invited_by_user_id INTEGER,
  invitation_email_template_id INTEGER,
  congrats_email_template_id INTEGER,
  send_congrats_notification INTEGER,
  target_score_profile TEXT,
  assessment_ids TEXT,
  assessment_url TEXT,
  scorecard_url TEXT,
  job_fit_summary_url TEXT,
  career_options_spotlight_url TEXT,
  career_navigation_url TEXT,
  test_taker_id INTEGER,
  career_navigation_profile_id TEXT,
  raw TEXT NOT NULL,
  list_hash TEXT NOT NULL,
  basis TEXT NOT NULL
);
CREATE INDEX invitations_team ON invitations(team_id);
CREATE INDEX invitations_test_taker ON invitations(test_taker_id);
CREATE TABLE test_takers (
  id INTEGER PRIMARY KEY,
  invitation_id INTEGER,
  team_id INTEGER,
  person_id TEXT,
  custom_id TEXT,
  phone TEXT,
  scorecard_url TEXT,
  job_fit_summary_url TEXT,
  career_navigation_url TEXT,
  career_navigation_profile_id TEXT,
  completed_tests TEXT NOT NULL,
  assessments_open INTEGER NOT NULL,
  raw TEXT NOT NULL,
  list_hash TEXT NOT NULL,
  basis TEXT NOT NULL
);
CREATE INDEX test_takers_team ON test_takers(team_id);
CREATE TABLE assigned_assessments (
  id INTEGER NOT NULL,
  test_taker_id INTEGER NOT NULL,
  position INTEGER NOT NULL,
  assessment_id INTEGER,
  assessment_name TEXT,
  assessment_short_name TEXT,
  completed_at TEXT,
  language TEXT,
  PRIMARY KEY (test_taker_id, id)
);
CREATE TABLE scorecards (
  test_taker_id INTEGER NOT NULL,
  score_profile TEXT NOT NULL,
  score_profile_id INTEGER,
  invitation_id INTEGER,
  custom_id TEXT,
  person_id TEXT,
  first_name TEXT,
  last_name TEXT,
  email TEXT,
  phone TEXT,
  fitscore_raw REAL,
  five_star_score INTEGER,
  job_fit_percentage REAL,
  riasec_profile TEXT,
${SCORE_COLUMNS.map((c) => `  ${c} INTEGER,`).join('\n')}
  raw TEXT NOT NULL,
  basis TEXT NOT NULL,
  PRIMARY KEY (test_taker_id, score_profile)
);
CREATE TABLE job_fit_reports (
  test_taker_id INTEGER PRIMARY KEY,
  invitation_id INTEGER,
  riasec_profile TEXT,
  raw TEXT NOT NULL,
  basis TEXT NOT NULL
);
CREATE TABLE job_fit_occupations (
  test_taker_id INTEGER NOT NULL,
  rank INTEGER NOT NULL,
  job_family_number TEXT,
  job_family_name TEXT,
  job_family_job_zone INTEGER,
  job_fit_percentage REAL,
  job_fit_star_rating INTEGER,
  PRIMARY KEY (test_taker_id, rank)
);
CREATE TABLE career_navigation_profiles (
  id TEXT PRIMARY KEY,
  test_taker_id INTEGER,
  person_id TEXT,
  career_navigation_url TEXT,
  strengths_career_interests TEXT,
  target_job_name TEXT,
  plan_job_name TEXT,
  plan_job_onet_code TEXT,
  raw TEXT NOT NULL
);
CREATE INDEX career_navigation_profiles_test_taker ON career_navigation_profiles(test_taker_id);
`;

/** MIGRATIONS[i] takes the schema from version i to i + 1. Append only: never edit a released step. */
export const MIGRATIONS: readonly string[] = [V1];
export const SCHEMA_VERSION = MIGRATIONS.length;

/** The tables that mirror the service, with their keys (for dumps and docs). */
export const MIRROR_TABLES: ReadonlyArray<{ name: string; key: string }> = [
  { name: 'teams', key: 'id' },
  { name: 'users', key: 'id' },
  { name: 'invitations', key: 'id' },
  { name: 'test_takers', key: 'id' },
  { name: 'assigned_assessments', key: 'test_taker_id, id' },
  { name: 'scorecards', key: 'test_taker_id, score_profile' },
  { name: 'job_fit_reports', key: 'test_taker_id' },
  { name: 'job_fit_occupations', key: 'test_taker_id, rank' },
  { name: 'career_navigation_profiles', key: 'id' },
];

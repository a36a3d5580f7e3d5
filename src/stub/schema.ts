/**
 * The schema of the stub's database (`stub.db`), and its migration: a
 * database made by an earlier version is brought up to this schema once, as
 * the store opens (PRAGMA user_version counts the steps done).
 */
import type { Database } from '../core/sqlite-engines.js';

export const SCHEMA = `
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS accounts (
  id INTEGER PRIMARY KEY,
  display_name TEXT NOT NULL,
  webhook_endpoint TEXT,
  webhook_test_endpoint TEXT,
  webhooks_enabled INTEGER NOT NULL DEFAULT 0,
  webhook_secret TEXT
);
CREATE TABLE IF NOT EXISTS api_keys (
  key TEXT PRIMARY KEY,
  account_id INTEGER NOT NULL,
  mode TEXT NOT NULL CHECK (mode IN ('live','test'))
);
CREATE TABLE IF NOT EXISTS teams (
  id INTEGER PRIMARY KEY,
  account_id INTEGER NOT NULL,
  display_name TEXT NOT NULL,
  webhooks_enabled INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX IF NOT EXISTS teams_account ON teams(account_id);
CREATE TABLE IF NOT EXISTS users (
  id INTEGER PRIMARY KEY,
  account_id INTEGER NOT NULL,
  first_name TEXT NOT NULL,
  last_name TEXT NOT NULL,
  email TEXT NOT NULL,
  email_lc TEXT NOT NULL,
  default_team_id INTEGER,
  default_test_ids TEXT NOT NULL DEFAULT '[]',
  default_invitation_template_id INTEGER,
  default_congrats_template_id INTEGER,
  default_scheduling_link TEXT,
  send_congrats_notification INTEGER NOT NULL DEFAULT 0,
  notify_on_completion INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX IF NOT EXISTS users_account_email ON users(account_id, email_lc);
CREATE TABLE IF NOT EXISTS user_teams (user_id INTEGER NOT NULL, team_id INTEGER NOT NULL, PRIMARY KEY (user_id, team_id));
CREATE INDEX IF NOT EXISTS user_teams_team ON user_teams(team_id);
CREATE TABLE IF NOT EXISTS templates (
  id INTEGER PRIMARY KEY,
  account_id INTEGER NOT NULL,
  display_name TEXT NOT NULL,
  template_type TEXT NOT NULL CHECK (template_type IN ('invitation','congrats'))
);
CREATE TABLE IF NOT EXISTS template_teams (template_id INTEGER NOT NULL, team_id INTEGER NOT NULL, PRIMARY KEY (template_id, team_id));
CREATE TABLE IF NOT EXISTS account_score_profiles (account_id INTEGER NOT NULL, score_profile_id INTEGER NOT NULL, PRIMARY KEY (account_id, score_profile_id));
CREATE TABLE IF NOT EXISTS invitations (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  account_id INTEGER NOT NULL,
  team_id INTEGER NOT NULL,
  invited_by_user_id INTEGER,
  created_at TEXT NOT NULL,
  accepted_at TEXT,
  first_name TEXT NOT NULL,
  last_name TEXT NOT NULL,
  email TEXT NOT NULL,
  email_lc TEXT NOT NULL,
  send_via_email INTEGER NOT NULL,
  phone TEXT,
  send_via_sms INTEGER NOT NULL,
  custom_id TEXT,
  person_id TEXT,
  invitation_template_id INTEGER,
  ref_text TEXT,
  congrats_template_id INTEGER,
  send_congrats_notification INTEGER NOT NULL DEFAULT 0,
  target_score_profile_id INTEGER,
  token TEXT NOT NULL UNIQUE,
  test_taker_id INTEGER,
  status_callback_url TEXT,
  api_version TEXT NOT NULL DEFAULT 'v2'
);
CREATE INDEX IF NOT EXISTS invitations_list ON invitations(account_id, created_at DESC, id DESC);
CREATE INDEX IF NOT EXISTS invitations_team_list ON invitations(team_id, created_at DESC, id DESC);
CREATE INDEX IF NOT EXISTS invitations_email ON invitations(account_id, email_lc);
CREATE TABLE IF NOT EXISTS invitation_assessments (
  invitation_id INTEGER NOT NULL,
  test_id INTEGER NOT NULL,
  position INTEGER NOT NULL,
  PRIMARY KEY (invitation_id, test_id)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS test_takers (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  account_id INTEGER NOT NULL,
  team_id INTEGER NOT NULL,
  invitation_id INTEGER NOT NULL UNIQUE,
  created_at TEXT NOT NULL,
  first_name TEXT NOT NULL,
  last_name TEXT NOT NULL,
  email TEXT NOT NULL,
  email_lc TEXT NOT NULL,
  phone TEXT,
  custom_id TEXT,
  person_id TEXT
);
CREATE INDEX IF NOT EXISTS test_takers_list ON test_takers(account_id, created_at DESC, id DESC);
CREATE INDEX IF NOT EXISTS test_takers_team_list ON test_takers(team_id, created_at DESC, id DESC);
CREATE INDEX IF NOT EXISTS test_takers_email ON test_takers(account_id, email_lc);
CREATE TABLE IF NOT EXISTS assigned_assessments (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  test_taker_id INTEGER NOT NULL,
  test_id INTEGER NOT NULL,
  position INTEGER NOT NULL,
  completed_at TEXT,
  language TEXT
);
CREATE INDEX IF NOT EXISTS assigned_taker ON assigned_assessments(test_taker_id);
CREATE TABLE IF NOT EXISTS career_navigation_profiles (
  id TEXT PRIMARY KEY,
  account_id INTEGER NOT NULL,
  test_taker_id INTEGER NOT NULL UNIQUE,
  created_at TEXT NOT NULL,
  seq INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS cnp_list ON career_navigation_profiles(account_id, created_at DESC, seq DESC);
CREATE TABLE IF NOT EXISTS outbox (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  account_id INTEGER NOT NULL,
  channel TEXT NOT NULL CHECK (channel IN ('email','sms')),
  kind TEXT NOT NULL,
  recipient TEXT NOT NULL,
  subject TEXT,
  body TEXT NOT NULL,
  template_id INTEGER,
  invitation_id INTEGER,
  test_taker_id INTEGER,
  created_at TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS events (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  id TEXT NOT NULL UNIQUE,
  account_id INTEGER NOT NULL,
  team_id INTEGER,
  type TEXT NOT NULL,
  created_at TEXT NOT NULL,
  payload TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS deliveries (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  event_id TEXT NOT NULL,
  url TEXT NOT NULL,
  attempt INTEGER NOT NULL DEFAULT 1,
  status TEXT NOT NULL,
  response_status INTEGER,
  attempted_at TEXT NOT NULL,
  error TEXT,
  duration_ms INTEGER
);
CREATE INDEX IF NOT EXISTS deliveries_event ON deliveries(event_id);
CREATE TABLE IF NOT EXISTS webhook_queue (
  event_id TEXT PRIMARY KEY,
  account_id INTEGER NOT NULL,
  url TEXT,
  state TEXT NOT NULL CHECK (state IN ('pending','sending','delivered','failed','skipped')),
  attempts INTEGER NOT NULL DEFAULT 0,
  next_attempt_at INTEGER,
  lease_until INTEGER,
  reason TEXT
);
CREATE INDEX IF NOT EXISTS webhook_queue_due ON webhook_queue(state, next_attempt_at);
CREATE TABLE IF NOT EXISTS webhook_listeners (
  url TEXT PRIMARY KEY,
  account_id INTEGER NOT NULL,
  pid INTEGER NOT NULL,
  linked_at INTEGER NOT NULL,
  ended_at INTEGER,
  before_json TEXT NOT NULL
);
`;

/** Every table the seed fills or the service writes, children first (for clear). */
export const TABLES = [
  'webhook_listeners',
  'webhook_queue',
  'deliveries',
  'events',
  'outbox',
  'career_navigation_profiles',
  'assigned_assessments',
  'test_takers',
  'invitation_assessments',
  'invitations',
  'account_score_profiles',
  'template_teams',
  'templates',
  'user_teams',
  'users',
  'teams',
  'api_keys',
  'accounts',
];

/**
 * Columns an earlier version added at run time, when its webhook code first
 * touched the database: a database it made may lack them. Each step runs
 * once (user_version), inside the store's opening transaction.
 */
const MIGRATIONS: ReadonlyArray<(db: Database) => void> = [
  (db) => {
    addColumnIfMissing(db, 'deliveries', 'duration_ms', 'INTEGER');
    addColumnIfMissing(db, 'accounts', 'webhook_secret', 'TEXT');
  },
];

function addColumnIfMissing(db: Database, table: string, column: string, type: string): void {
  const cols = db.prepare(`PRAGMA table_info(${table})`).all() as Array<{ name: string }>;
  if (!cols.some((c) => c.name === column)) db.exec(`ALTER TABLE ${table} ADD COLUMN ${column} ${type}`);
}

/** Brings a database made by an earlier version up to SCHEMA. Call inside a write transaction, after SCHEMA. */
export function migrateSchema(db: Database): void {
  const done = (db.prepare('PRAGMA user_version').get() as { user_version: number }).user_version;
  for (let step = done; step < MIGRATIONS.length; step++) MIGRATIONS[step](db);
  if (done < MIGRATIONS.length) db.exec(`PRAGMA user_version = ${MIGRATIONS.length}`);
}

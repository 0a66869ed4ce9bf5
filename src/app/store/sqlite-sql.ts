import { IN_FLIGHT_STATES } from './run-states.ts';
import type { StoreStatements } from './store-dialect.ts';

const inFlight = IN_FLIGHT_STATES.map((state) => `'${state}'`).join(', ');

/** The SQLite schema (idempotent). Times are ms since the epoch; JSON is stored as text. */
export const SQLITE_SCHEMA = `
CREATE TABLE IF NOT EXISTS deliveries (
  delivery_id TEXT PRIMARY KEY,
  received_at INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS events (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  delivery_id TEXT NOT NULL UNIQUE,
  name TEXT NOT NULL,
  payload TEXT NOT NULL,
  installation_id INTEGER,
  received_at INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS runs (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  id TEXT NOT NULL UNIQUE,
  job TEXT NOT NULL,
  installation_id INTEGER,
  state TEXT NOT NULL,
  repo_key TEXT NOT NULL,
  issue_key TEXT NOT NULL,
  adapter TEXT NOT NULL,
  attempts INTEGER NOT NULL DEFAULT 0,
  fencing_token INTEGER NOT NULL DEFAULT 0,
  lease_owner TEXT,
  lease_token TEXT,
  lease_expires_at INTEGER,
  check_run_id INTEGER,
  comment_id INTEGER,
  cancel_requested INTEGER NOT NULL DEFAULT 0,
  conclusion TEXT,
  reason TEXT,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS runs_by_state ON runs (state, seq);
CREATE INDEX IF NOT EXISTS runs_by_issue ON runs (issue_key, state);
CREATE TABLE IF NOT EXISTS counters (
  name TEXT PRIMARY KEY,
  value INTEGER NOT NULL
);
INSERT INTO counters (name, value) VALUES ('fencing', 0) ON CONFLICT DO NOTHING;
CREATE TABLE IF NOT EXISTS pending_approvals (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  approval_id TEXT NOT NULL UNIQUE,
  run_id TEXT NOT NULL,
  issue_key TEXT NOT NULL,
  approval TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS pending_approvals_by_run ON pending_approvals (run_id);
CREATE INDEX IF NOT EXISTS pending_approvals_by_issue ON pending_approvals (issue_key);
CREATE TABLE IF NOT EXISTS superseded_approvals (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  approval_id TEXT NOT NULL UNIQUE,
  run_id TEXT NOT NULL,
  issue_key TEXT NOT NULL,
  approval TEXT NOT NULL,
  reason TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS superseded_approvals_by_issue ON superseded_approvals (issue_key);
CREATE TABLE IF NOT EXISTS answers (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  issue_key TEXT NOT NULL,
  kind TEXT NOT NULL,
  body TEXT NOT NULL,
  received_at INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS answers_by_issue ON answers (issue_key, id);
CREATE TABLE IF NOT EXISTS subjects (
  subject_key TEXT PRIMARY KEY,
  delivery_id TEXT NOT NULL,
  received_at INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS conversations (
  repository TEXT NOT NULL,
  number INTEGER NOT NULL,
  agent TEXT NOT NULL,
  state TEXT NOT NULL,
  session BLOB NOT NULL,
  bytes INTEGER NOT NULL,
  updated_at INTEGER NOT NULL,
  PRIMARY KEY (repository, number, agent)
);
CREATE INDEX IF NOT EXISTS conversations_by_age ON conversations (updated_at);
CREATE TABLE IF NOT EXISTS spend (
  scope TEXT NOT NULL,
  day TEXT NOT NULL,
  usd REAL NOT NULL,
  tokens INTEGER NOT NULL,
  PRIMARY KEY (scope, day)
);
CREATE TABLE IF NOT EXISTS spend_adds (
  token TEXT PRIMARY KEY,
  added_at INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS spend_adds_by_age ON spend_adds (added_at);
`;

/** Columns added after the first release: `[table, column, definition]`, added by `migrate` when missing. */
export const SQLITE_ADDED_COLUMNS: readonly (readonly [string, string, string])[] = [
  ['deliveries', 'duplicate_of', 'TEXT'],
  ['events', 'order_key', 'TEXT'],
  ['events', 'lease_until', 'INTEGER'],
  ['events', 'attempts', 'INTEGER NOT NULL DEFAULT 0'],
  ['runs', 'delivery_id', 'TEXT'],
  ['runs', 'conversation_key', 'TEXT'],
  ['runs', 'claimed_at', 'INTEGER'],
  ['conversations', 'installation_id', 'INTEGER'],
  ['answers', 'taken_by', 'TEXT'],
  ['answers', 'taken_at', 'INTEGER'],
];

/** Indexes on added columns, made by `migrate` after them (idempotent). */
export const SQLITE_ADDED_INDEXES = `
CREATE INDEX IF NOT EXISTS events_by_order ON events (order_key, seq);
CREATE UNIQUE INDEX IF NOT EXISTS runs_by_delivery ON runs (delivery_id);
CREATE INDEX IF NOT EXISTS runs_by_installation_claim ON runs (installation_id, claimed_at);
CREATE INDEX IF NOT EXISTS conversations_by_installation ON conversations (installation_id, updated_at);
CREATE INDEX IF NOT EXISTS runs_by_lease_token ON runs (lease_token);
`;

/**
 * The SQLite statements, with the parameters of PostgreSQL's in the same order (`?n` where one is
 * used twice); list parameters are JSON arrays read with `json_each`.
 */
export const SQLITE_SQL: StoreStatements = {
  insertDelivery: 'INSERT INTO deliveries (delivery_id, received_at) VALUES (?, ?) ON CONFLICT DO NOTHING',
  insertSubject: 'INSERT INTO subjects (subject_key, delivery_id, received_at) VALUES (?, ?, ?) ON CONFLICT DO NOTHING',
  subjectDelivery: 'SELECT delivery_id FROM subjects WHERE subject_key = ?',
  markDuplicate: 'UPDATE deliveries SET duplicate_of = ? WHERE delivery_id = ?',
  insertEvent: `INSERT INTO events (delivery_id, name, payload, installation_id, received_at, order_key)
    VALUES (?, ?, ?, ?, ?, ?)`,
  takeEvent: `UPDATE events SET lease_until = ? WHERE seq = (
    SELECT e.seq FROM events e WHERE (e.lease_until IS NULL OR e.lease_until < ?)
    AND (e.order_key IS NULL OR NOT EXISTS (SELECT 1 FROM events o WHERE o.order_key = e.order_key AND o.seq < e.seq))
    ORDER BY e.seq LIMIT 1) RETURNING *`,
  completeEvent: 'DELETE FROM events WHERE delivery_id = ?',
  retryEvent: 'UPDATE events SET lease_until = ?, attempts = attempts + 1 WHERE delivery_id = ?',
  runByDelivery: 'SELECT * FROM runs WHERE delivery_id = ?',

  insertRun: `INSERT INTO runs (id, job, installation_id, state, repo_key, issue_key, adapter, created_at, updated_at,
    delivery_id, conversation_key) VALUES (?1, ?2, ?3, 'queued', ?4, ?5, ?6, ?7, ?7, ?8, ?9) RETURNING *`,
  requestCancel: `UPDATE runs SET cancel_requested = 1, updated_at = ?
    WHERE issue_key = ? AND state IN ('queued', ${inFlight}) RETURNING id, seq`,
  cancelQueued: `UPDATE runs SET state = 'cancelled', conclusion = ?, reason = ?, updated_at = ?
    WHERE state = 'queued' AND cancel_requested = 1`,
  inFlightKeys: `SELECT issue_key, repo_key, adapter, conversation_key, installation_id FROM runs
    WHERE state IN (${inFlight})`,
  /** Round robin over installations: the one whose last claim is oldest (or never) first, then its oldest run. */
  candidate: `SELECT id FROM runs r WHERE state = 'queued' AND cancel_requested = 0
    AND issue_key NOT IN (SELECT value FROM json_each(?1))
    AND coalesce(conversation_key, issue_key) NOT IN (SELECT value FROM json_each(?1))
    AND repo_key NOT IN (SELECT value FROM json_each(?2))
    AND adapter NOT IN (SELECT value FROM json_each(?3))
    AND (?4 IS NULL OR adapter IN (SELECT value FROM json_each(?4)))
    AND coalesce(CAST(installation_id AS TEXT), '') NOT IN (SELECT value FROM json_each(?5))
    ORDER BY (SELECT max(c.claimed_at) FROM runs c WHERE c.installation_id IS r.installation_id) NULLS FIRST, seq
    LIMIT 1`,
  runByLeaseToken: 'SELECT * FROM runs WHERE lease_token = ?1',
  nextLeaseEpoch: `UPDATE counters SET value = value + 1 WHERE name = 'fencing' RETURNING value`,
  startRun: `UPDATE runs SET state = 'running', fencing_token = ?1, lease_owner = ?2, lease_token = ?3, lease_expires_at = ?4,
    updated_at = ?5, claimed_at = ?5 WHERE id = ?6 RETURNING *`,

  renew: `UPDATE runs SET lease_expires_at = ?, updated_at = ?
    WHERE id = ? AND fencing_token = ? AND lease_token = ? AND state IN (${inFlight})`,
  update: `UPDATE runs SET state = coalesce(?, state), check_run_id = coalesce(?, check_run_id),
    comment_id = coalesce(?, comment_id), updated_at = ?
    WHERE id = ? AND fencing_token = ? AND lease_token = ? AND state IN (${inFlight})`,
  finish: `UPDATE runs SET state = ?, conclusion = ?, reason = ?, lease_owner = NULL, lease_token = NULL,
    lease_expires_at = NULL, updated_at = ?
    WHERE id = ? AND fencing_token = ? AND lease_token = ? AND state IN (${inFlight})`,

  expiredRuns: `SELECT * FROM runs WHERE state IN (${inFlight}) AND lease_expires_at < ? ORDER BY seq`,
  requeue: `UPDATE runs SET state = 'queued', attempts = attempts + 1, fencing_token = ?5, check_run_id = NULL,
    lease_owner = NULL, lease_token = NULL, lease_expires_at = NULL, reason = ?1, updated_at = ?2
    WHERE id = ?3 AND fencing_token = ?4 AND state IN (${inFlight}) RETURNING *`,
  concludeReported: `UPDATE runs SET state = ?6, conclusion = ?7, reason = ?1, fencing_token = ?5, lease_owner = NULL,
    lease_token = NULL, lease_expires_at = NULL, updated_at = ?2
    WHERE id = ?3 AND fencing_token = ?4 AND state IN (${inFlight}) RETURNING *`,
  fail: `UPDATE runs SET state = 'failed', conclusion = ?6, reason = ?1, fencing_token = ?5, lease_owner = NULL,
    lease_token = NULL, lease_expires_at = NULL, updated_at = ?2
    WHERE id = ?3 AND fencing_token = ?4 AND state IN (${inFlight}) RETURNING *`,

  get: 'SELECT * FROM runs WHERE id = ?',
  list: `SELECT * FROM runs WHERE (?1 IS NULL OR state IN (SELECT value FROM json_each(?1)))
    AND (?2 IS NULL OR issue_key = ?2) ORDER BY seq`,

  savePendingApproval: `INSERT INTO pending_approvals (approval_id, run_id, issue_key, approval) VALUES (?, ?, ?, ?)
    ON CONFLICT (approval_id) DO UPDATE SET run_id = excluded.run_id, issue_key = excluded.issue_key,
    approval = excluded.approval`,
  removePendingApproval: 'DELETE FROM pending_approvals WHERE approval_id = ?',
  supersedeApprovals: `INSERT INTO superseded_approvals (approval_id, run_id, issue_key, approval, reason)
    SELECT approval_id, run_id, issue_key, approval, ? FROM pending_approvals WHERE run_id = ? ORDER BY seq
    ON CONFLICT (approval_id) DO UPDATE SET reason = excluded.reason RETURNING *`,
  /** The pending approvals of the run that `supersedeApprovals` moved. */
  removeRunApprovals: `DELETE FROM pending_approvals WHERE run_id = ?1
    AND approval_id IN (SELECT approval_id FROM superseded_approvals WHERE run_id = ?1)`,
  supersededApprovals: `SELECT * FROM superseded_approvals WHERE (?1 IS NULL OR run_id = ?1)
    AND (?2 IS NULL OR issue_key = ?2) ORDER BY seq`,
  pendingApprovals: `SELECT * FROM pending_approvals WHERE (?1 IS NULL OR run_id = ?1)
    AND (?2 IS NULL OR issue_key = ?2) ORDER BY seq`,

  addAnswer: 'INSERT INTO answers (issue_key, kind, body, received_at) VALUES (?, ?, ?, ?)',
  takeAnswers: `UPDATE answers SET taken_by = ?2, taken_at = ?3
    WHERE issue_key = ?1 AND (taken_by IS NULL OR taken_by = ?2) RETURNING *`,
  forgetTakenAnswers: 'DELETE FROM answers WHERE taken_by = ?1 OR taken_at < ?2',

  loadConversation: 'SELECT state, session FROM conversations WHERE repository = ? AND number = ? AND agent = ?',
  overQuota: `DELETE FROM conversations WHERE rowid IN (
      SELECT rowid FROM (
        SELECT rowid, sum(bytes) OVER (ORDER BY updated_at DESC, repository, number, agent) AS running
        FROM conversations WHERE installation_id IS ?1)
      WHERE running > ?2)
    RETURNING repository, number, agent`,
  saveConversation: `INSERT INTO conversations (repository, number, agent, state, session, bytes, updated_at,
    installation_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (repository, number, agent) DO UPDATE
    SET state = excluded.state, session = excluded.session, bytes = excluded.bytes, updated_at = excluded.updated_at,
    installation_id = excluded.installation_id WHERE excluded.updated_at >= conversations.updated_at`,
  forgetConversations: 'DELETE FROM conversations WHERE updated_at < ?',

  spentOn: 'SELECT usd, tokens FROM spend WHERE scope = ? AND day = ?',
  markSpendAdd: 'INSERT INTO spend_adds (token, added_at) VALUES (?, ?) ON CONFLICT DO NOTHING',
  addSpend: `INSERT INTO spend (scope, day, usd, tokens) VALUES (?, ?, ?, ?) ON CONFLICT (scope, day)
    DO UPDATE SET usd = spend.usd + excluded.usd, tokens = spend.tokens + excluded.tokens RETURNING usd, tokens`,
  forgetSpendAdds: 'DELETE FROM spend_adds WHERE added_at < ?',
};

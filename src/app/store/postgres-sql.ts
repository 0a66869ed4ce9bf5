import { IN_FLIGHT_STATES } from './run-states.ts';
import type { StoreStatements } from './store-dialect.ts';

const inFlight = IN_FLIGHT_STATES.map((state) => `'${state}'`).join(', ');

/** PostgreSQL schema names the store accepts: plain lower-case identifiers, so SQL text needs no quoting. */
export const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

/** The PostgreSQL schema and statements, qualified with `schema` (checked against `SCHEMA_NAME` by the caller). */
export function postgresSql(schema: string) {
  return { ...statements(schema), ...locksAndSchema(schema) };
}

/** The statements of one schema (the names every dialect gives). */
function statements(schema: string): StoreStatements {
  const s = schema;
  return {
    insertDelivery: `INSERT INTO ${s}.deliveries (delivery_id, received_at) VALUES ($1, $2) ON CONFLICT DO NOTHING`,
    insertSubject: `INSERT INTO ${s}.subjects (subject_key, delivery_id, received_at) VALUES ($1, $2, $3)
      ON CONFLICT DO NOTHING`,
    subjectDelivery: `SELECT delivery_id FROM ${s}.subjects WHERE subject_key = $1`,
    markDuplicate: `UPDATE ${s}.deliveries SET duplicate_of = $1 WHERE delivery_id = $2`,
    insertEvent: `INSERT INTO ${s}.events (delivery_id, name, payload, installation_id, received_at, order_key)
      VALUES ($1, $2, $3, $4, $5, $6)`,
    takeEvent: `UPDATE ${s}.events SET lease_until = $1 WHERE seq = (
      SELECT e.seq FROM ${s}.events e WHERE (e.lease_until IS NULL OR e.lease_until < $2)
      AND (e.order_key IS NULL OR NOT EXISTS (
        SELECT 1 FROM ${s}.events o WHERE o.order_key = e.order_key AND o.seq < e.seq))
      ORDER BY e.seq LIMIT 1 FOR UPDATE SKIP LOCKED) RETURNING *`,
    completeEvent: `DELETE FROM ${s}.events WHERE delivery_id = $1`,
    retryEvent: `UPDATE ${s}.events SET lease_until = $1, attempts = attempts + 1 WHERE delivery_id = $2`,
    runByDelivery: `SELECT * FROM ${s}.runs WHERE delivery_id = $1`,

    insertRun: `INSERT INTO ${s}.runs (id, job, installation_id, state, repo_key, issue_key, adapter, created_at, updated_at,
      delivery_id, conversation_key) VALUES ($1, $2, $3, 'queued', $4, $5, $6, $7, $7, $8, $9) RETURNING *`,
    requestCancel: `UPDATE ${s}.runs SET cancel_requested = true, updated_at = $1
      WHERE issue_key = $2 AND state IN ('queued', ${inFlight}) RETURNING id, seq`,

    cancelQueued: `UPDATE ${s}.runs SET state = 'cancelled', conclusion = $1, reason = $2, updated_at = $3
      WHERE id IN (SELECT id FROM ${s}.runs WHERE state = 'queued' AND cancel_requested FOR UPDATE SKIP LOCKED)`,
    inFlightKeys: `SELECT issue_key, repo_key, adapter, conversation_key, installation_id FROM ${s}.runs
      WHERE state IN (${inFlight})`,
    /** Round robin over installations: the one whose last claim is oldest (or never) first, then its oldest run. */
    candidate: `SELECT r.id FROM ${s}.runs r WHERE r.state = 'queued' AND NOT r.cancel_requested
      AND NOT (r.issue_key = ANY($1::text[])) AND NOT (coalesce(r.conversation_key, r.issue_key) = ANY($1::text[]))
      AND NOT (r.repo_key = ANY($2::text[])) AND NOT (r.adapter = ANY($3::text[]))
      AND ($4::text[] IS NULL OR r.adapter = ANY($4::text[]))
      AND NOT (coalesce(r.installation_id::text, '') = ANY($5::text[]))
      ORDER BY (SELECT max(c.claimed_at) FROM ${s}.runs c WHERE c.installation_id IS NOT DISTINCT FROM r.installation_id)
        NULLS FIRST, r.seq
      LIMIT 1 FOR UPDATE SKIP LOCKED`,
    runByLeaseToken: `SELECT * FROM ${s}.runs WHERE lease_token = $1`,
    nextLeaseEpoch: `SELECT nextval('${s}.fencing_tokens') AS value`,
    startRun: `UPDATE ${s}.runs SET state = 'running', fencing_token = $1, lease_owner = $2,
      lease_token = $3, lease_expires_at = $4, updated_at = $5, claimed_at = $5 WHERE id = $6 RETURNING *`,

    renew: `UPDATE ${s}.runs SET lease_expires_at = $1, updated_at = $2
      WHERE id = $3 AND fencing_token = $4 AND lease_token = $5 AND state IN (${inFlight})`,
    update: `UPDATE ${s}.runs SET state = coalesce($1::text, state), check_run_id = coalesce($2::bigint, check_run_id),
      comment_id = coalesce($3::bigint, comment_id), updated_at = $4
      WHERE id = $5 AND fencing_token = $6 AND lease_token = $7 AND state IN (${inFlight})`,
    finish: `UPDATE ${s}.runs SET state = $1, conclusion = $2, reason = $3, lease_owner = NULL, lease_token = NULL,
      lease_expires_at = NULL, updated_at = $4
      WHERE id = $5 AND fencing_token = $6 AND lease_token = $7 AND state IN (${inFlight})`,

    expiredRuns: `SELECT * FROM ${s}.runs WHERE state IN (${inFlight}) AND lease_expires_at < $1 ORDER BY seq`,
    requeue: `UPDATE ${s}.runs SET state = 'queued', attempts = attempts + 1, fencing_token = $5,
      check_run_id = NULL, lease_owner = NULL, lease_token = NULL, lease_expires_at = NULL, reason = $1, updated_at = $2
      WHERE id = $3 AND fencing_token = $4 AND state IN (${inFlight}) RETURNING *`,
    concludeReported: `UPDATE ${s}.runs SET state = $6, conclusion = $7, reason = $1, fencing_token = $5,
      lease_owner = NULL, lease_token = NULL, lease_expires_at = NULL, updated_at = $2
      WHERE id = $3 AND fencing_token = $4 AND state IN (${inFlight}) RETURNING *`,
    fail: `UPDATE ${s}.runs SET state = 'failed', conclusion = $6, reason = $1, fencing_token = $5,
      lease_owner = NULL, lease_token = NULL, lease_expires_at = NULL, updated_at = $2
      WHERE id = $3 AND fencing_token = $4 AND state IN (${inFlight}) RETURNING *`,

    get: `SELECT * FROM ${s}.runs WHERE id = $1`,
    list: `SELECT * FROM ${s}.runs WHERE ($1::text[] IS NULL OR state = ANY($1::text[]))
      AND ($2::text IS NULL OR issue_key = $2) ORDER BY seq`,

    savePendingApproval: `INSERT INTO ${s}.pending_approvals (approval_id, run_id, issue_key, approval) VALUES ($1, $2, $3, $4)
      ON CONFLICT (approval_id) DO UPDATE SET run_id = excluded.run_id, issue_key = excluded.issue_key,
      approval = excluded.approval`,
    removePendingApproval: `DELETE FROM ${s}.pending_approvals WHERE approval_id = $1`,
    supersedeApprovals: `INSERT INTO ${s}.superseded_approvals (approval_id, run_id, issue_key, approval, reason)
      SELECT approval_id, run_id, issue_key, approval, $1 FROM ${s}.pending_approvals WHERE run_id = $2 ORDER BY seq
      ON CONFLICT (approval_id) DO UPDATE SET reason = excluded.reason RETURNING *`,
    /** The pending approvals of the run that \`supersedeApprovals\` moved (one asked meanwhile stays). */
    removeRunApprovals: `DELETE FROM ${s}.pending_approvals p WHERE p.run_id = $1
      AND EXISTS (SELECT 1 FROM ${s}.superseded_approvals m WHERE m.approval_id = p.approval_id AND m.run_id = $1)`,
    supersededApprovals: `SELECT * FROM ${s}.superseded_approvals WHERE ($1::text IS NULL OR run_id = $1)
      AND ($2::text IS NULL OR issue_key = $2) ORDER BY seq`,
    pendingApprovals: `SELECT * FROM ${s}.pending_approvals WHERE ($1::text IS NULL OR run_id = $1)
      AND ($2::text IS NULL OR issue_key = $2) ORDER BY seq`,

    addAnswer: `INSERT INTO ${s}.answers (issue_key, kind, body, received_at) VALUES ($1, $2, $3, $4)`,
    takeAnswers: `UPDATE ${s}.answers SET taken_by = $2, taken_at = $3 WHERE id IN (
      SELECT id FROM ${s}.answers WHERE issue_key = $1 AND (taken_by IS NULL OR taken_by = $2) FOR UPDATE SKIP LOCKED)
      RETURNING *`,
    forgetTakenAnswers: `DELETE FROM ${s}.answers WHERE taken_by = $1 OR taken_at < $2`,

    loadConversation: `SELECT state, session FROM ${s}.conversations WHERE repository = $1 AND number = $2 AND agent = $3`,
    saveConversation: `INSERT INTO ${s}.conversations (repository, number, agent, state, session, bytes, updated_at,
      installation_id) VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT (repository, number, agent) DO UPDATE
      SET state = excluded.state, session = excluded.session, bytes = excluded.bytes, updated_at = excluded.updated_at,
      installation_id = excluded.installation_id WHERE excluded.updated_at >= ${s}.conversations.updated_at`,
    /** The installation's conversations past its quota, newest kept first. */
    overQuota: `DELETE FROM ${s}.conversations c USING (
        SELECT repository, number, agent, sum(bytes) OVER (ORDER BY updated_at DESC, repository, number, agent) AS running
        FROM ${s}.conversations WHERE installation_id IS NOT DISTINCT FROM $1) t
      WHERE t.running > $2 AND c.repository = t.repository AND c.number = t.number AND c.agent = t.agent
      RETURNING c.repository, c.number, c.agent`,
    forgetConversations: `DELETE FROM ${s}.conversations WHERE updated_at < $1`,

    spentOn: `SELECT usd, tokens FROM ${s}.spend WHERE scope = $1 AND day = $2`,
    markSpendAdd: `INSERT INTO ${s}.spend_adds (token, added_at) VALUES ($1, $2) ON CONFLICT DO NOTHING`,
    /** One atomic statement: concurrent adds to a day (any replica) wait on its row, and none is lost. */
    addSpend: `INSERT INTO ${s}.spend (scope, day, usd, tokens) VALUES ($1, $2, $3, $4) ON CONFLICT (scope, day)
      DO UPDATE SET usd = ${s}.spend.usd + excluded.usd, tokens = ${s}.spend.tokens + excluded.tokens
      RETURNING usd, tokens`,
    forgetSpendAdds: `DELETE FROM ${s}.spend_adds WHERE added_at < $1`,
  };
}

/** The advisory locks (`StoreDialect.lock`) and the schema `migrate` makes. */
function locksAndSchema(s: string) {
  return {
    migrateLock: `SELECT pg_advisory_xact_lock(hashtext('agent-mux:migrate:${s}'))`,
    schema: `
CREATE SCHEMA IF NOT EXISTS ${s};
CREATE TABLE IF NOT EXISTS ${s}.deliveries (
  delivery_id text PRIMARY KEY,
  received_at bigint NOT NULL
);
CREATE TABLE IF NOT EXISTS ${s}.events (
  seq bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  delivery_id text NOT NULL UNIQUE,
  name text NOT NULL,
  payload text NOT NULL,
  installation_id bigint,
  received_at bigint NOT NULL
);
CREATE TABLE IF NOT EXISTS ${s}.runs (
  seq bigint GENERATED ALWAYS AS IDENTITY UNIQUE,
  id text PRIMARY KEY,
  job text NOT NULL,
  installation_id bigint,
  state text NOT NULL,
  repo_key text NOT NULL,
  issue_key text NOT NULL,
  adapter text NOT NULL,
  attempts integer NOT NULL DEFAULT 0,
  fencing_token bigint NOT NULL DEFAULT 0,
  lease_owner text,
  lease_token text,
  lease_expires_at bigint,
  check_run_id bigint,
  comment_id bigint,
  cancel_requested boolean NOT NULL DEFAULT false,
  conclusion text,
  reason text,
  created_at bigint NOT NULL,
  updated_at bigint NOT NULL
);
CREATE INDEX IF NOT EXISTS runs_by_state ON ${s}.runs (state, seq);
CREATE INDEX IF NOT EXISTS runs_by_issue ON ${s}.runs (issue_key, state);
CREATE SEQUENCE IF NOT EXISTS ${s}.fencing_tokens;
CREATE TABLE IF NOT EXISTS ${s}.pending_approvals (
  seq bigint GENERATED ALWAYS AS IDENTITY UNIQUE,
  approval_id text PRIMARY KEY,
  run_id text NOT NULL,
  issue_key text NOT NULL,
  approval text NOT NULL
);
CREATE INDEX IF NOT EXISTS pending_approvals_by_run ON ${s}.pending_approvals (run_id);
CREATE INDEX IF NOT EXISTS pending_approvals_by_issue ON ${s}.pending_approvals (issue_key);
CREATE TABLE IF NOT EXISTS ${s}.superseded_approvals (
  seq bigint GENERATED ALWAYS AS IDENTITY UNIQUE,
  approval_id text PRIMARY KEY,
  run_id text NOT NULL,
  issue_key text NOT NULL,
  approval text NOT NULL,
  reason text NOT NULL
);
CREATE INDEX IF NOT EXISTS superseded_approvals_by_issue ON ${s}.superseded_approvals (issue_key);
CREATE TABLE IF NOT EXISTS ${s}.answers (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  issue_key text NOT NULL,
  kind text NOT NULL,
  body text NOT NULL,
  received_at bigint NOT NULL
);
CREATE INDEX IF NOT EXISTS answers_by_issue ON ${s}.answers (issue_key, id);
-- takeAnswers marks what it takes before it deletes it: a retry after a lost acknowledgement gets it again.
ALTER TABLE ${s}.answers ADD COLUMN IF NOT EXISTS taken_by text;
ALTER TABLE ${s}.answers ADD COLUMN IF NOT EXISTS taken_at bigint;
CREATE TABLE IF NOT EXISTS ${s}.subjects (
  subject_key text PRIMARY KEY,
  delivery_id text NOT NULL,
  received_at bigint NOT NULL
);
CREATE TABLE IF NOT EXISTS ${s}.conversations (
  repository text NOT NULL,
  number integer NOT NULL,
  agent text NOT NULL,
  state text NOT NULL,
  session bytea NOT NULL,
  bytes bigint NOT NULL,
  updated_at bigint NOT NULL,
  PRIMARY KEY (repository, number, agent)
);
CREATE INDEX IF NOT EXISTS conversations_by_age ON ${s}.conversations (updated_at);
ALTER TABLE ${s}.conversations ADD COLUMN IF NOT EXISTS installation_id bigint;
CREATE INDEX IF NOT EXISTS conversations_by_installation ON ${s}.conversations (installation_id, updated_at);
ALTER TABLE ${s}.deliveries ADD COLUMN IF NOT EXISTS duplicate_of text;
ALTER TABLE ${s}.events ADD COLUMN IF NOT EXISTS order_key text;
ALTER TABLE ${s}.events ADD COLUMN IF NOT EXISTS lease_until bigint;
ALTER TABLE ${s}.events ADD COLUMN IF NOT EXISTS attempts integer NOT NULL DEFAULT 0;
ALTER TABLE ${s}.runs ADD COLUMN IF NOT EXISTS delivery_id text;
ALTER TABLE ${s}.runs ADD COLUMN IF NOT EXISTS conversation_key text;
ALTER TABLE ${s}.runs ADD COLUMN IF NOT EXISTS claimed_at bigint;
CREATE INDEX IF NOT EXISTS runs_by_installation_claim ON ${s}.runs (installation_id, claimed_at);
CREATE INDEX IF NOT EXISTS events_by_order ON ${s}.events (order_key, seq);
CREATE UNIQUE INDEX IF NOT EXISTS runs_by_delivery ON ${s}.runs (delivery_id);
CREATE INDEX IF NOT EXISTS runs_by_lease_token ON ${s}.runs (lease_token);
CREATE TABLE IF NOT EXISTS ${s}.spend (
  scope text NOT NULL,
  day text NOT NULL,
  usd double precision NOT NULL,
  tokens bigint NOT NULL,
  PRIMARY KEY (scope, day)
);
-- addSpend's tokens: the retry of an add whose COMMIT was not acknowledged finds its own and adds nothing.
CREATE TABLE IF NOT EXISTS ${s}.spend_adds (
  token text PRIMARY KEY,
  added_at bigint NOT NULL
);
CREATE INDEX IF NOT EXISTS spend_adds_by_age ON ${s}.spend_adds (added_at);
`,
    /** One delivery queues one run: concurrent enqueues of it are serialized on this lock. */
    deliveryLock: `SELECT pg_advisory_xact_lock(hashtext('agent-mux:delivery:${s}:' || $1))`,
    /** Claims are serialized by this lock so that the issue, repository and adapter limits hold across replicas. */
    claimLock: `SELECT pg_advisory_xact_lock(hashtext('agent-mux:claim:${s}'))`,
    /** Serializes the quota's saves of one installation (key: the installation id, or '' for none). */
    quotaLock: `SELECT pg_advisory_xact_lock(hashtext('agent-mux:quota:${s}:' || $1))`,
  } as const;
}

/** The statements of one schema. */
export type PostgresSql = ReturnType<typeof postgresSql>;

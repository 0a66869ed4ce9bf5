import { randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { DatabaseSync, type SQLInputValue, type StatementSync } from 'node:sqlite';
import { packConversation } from '../../github/conversation/pack-conversation.ts';
import { claimExclusions } from './claim-exclusions.ts';
import { refuseOverQuota, throwIfEvicted } from './conversation-quota.ts';
import { CorruptRowError } from './corrupt-row-error.ts';
import { InvalidRunStateError } from './invalid-run-state-error.ts';
import * as mapping from './row-mapping.ts';
import { runKeys } from './run-keys.ts';
import { CANCELLED_BEFORE_START, IN_FLIGHT_STATES, isFinalState, RECOVERED_FAILURE_CONCLUSION } from './run-states.ts';
import { DEFAULT_EVENT_LEASE_MS, FINAL_STATES, type Lease, type RecordOutcome, type RunStore } from './run-store.ts';
import { type SqliteCheckpointer, startSqliteCheckpointer } from './sqlite-checkpointer.ts';
import { SQLITE_ADDED_COLUMNS, SQLITE_ADDED_INDEXES, SQLITE_SCHEMA, SQLITE_SQL } from './sqlite-sql.ts';
import { StaleLeaseError } from './stale-lease-error.ts';

export interface SqliteRunStoreOptions {
  /**
   * The database file, e.g. `./data/agent-mux.db`; its directory is created. `:memory:` is for tests
   * only (nothing survives, and no other handle sees it).
   */
  file: string;
  /** How long a write waits for another process's write lock (SQLite `busy_timeout`). Default 10 000 ms. */
  busyTimeoutMs?: number;
  /**
   * Where the write-ahead log is checkpointed: `inline` (default; SQLite's automatic checkpoint, in
   * whichever commit crosses 1 000 pages) or `worker` (a worker thread's connection, every second,
   * so that no commit on the event loop waits for one; sqlite-checkpointer.ts). The app uses `worker`.
   */
  checkpoint?: 'inline' | 'worker';
}

/**
 * The embedded `RunStore`: one SQLite file in WAL mode (Node's built-in `node:sqlite`). Every write
 * runs in a `BEGIN IMMEDIATE` transaction that never spans an `await`, so several handles — in one
 * process or several — serialize on the file's write lock and never claim the same run twice.
 *
 * A queued run whose cancellation was requested is never claimed: `claim` concludes it `cancelled`
 * (conclusion `cancelled`) in its transaction.
 */
export function createSqliteRunStore(options: SqliteRunStoreOptions): RunStore {
  if (options.file !== ':memory:') mkdirSync(dirname(resolve(options.file)), { recursive: true });
  const db = new DatabaseSync(options.file, { timeout: options.busyTimeoutMs ?? 10_000 });
  db.exec('PRAGMA journal_mode = WAL');
  db.exec('PRAGMA synchronous = NORMAL');
  let checkpointer: SqliteCheckpointer | undefined;
  if (options.checkpoint === 'worker' && options.file !== ':memory:') {
    db.exec('PRAGMA wal_autocheckpoint = 0');
    // A log restarted after a burst is cut back to 8 MiB rather than kept at its largest.
    db.exec('PRAGMA journal_size_limit = 8388608');
    checkpointer = startSqliteCheckpointer({
      file: options.file,
      busyTimeoutMs: options.busyTimeoutMs,
      // Without its worker the log would only grow: this connection checkpoints again.
      onFailure: () => {
        if (db.isOpen) db.exec('PRAGMA wal_autocheckpoint = 1000');
      },
    });
  }

  const statements = new Map<string, StatementSync>();
  const sql = (text: string): StatementSync => {
    let statement = statements.get(text);
    if (!statement) {
      statement = db.prepare(text);
      statements.set(text, statement);
    }
    return statement;
  };
  const transaction = <T>(work: () => T): T => {
    db.exec('BEGIN IMMEDIATE');
    try {
      const result = work();
      db.exec('COMMIT');
      return result;
    } catch (error) {
      if (db.isTransaction) db.exec('ROLLBACK');
      throw error;
    }
  };
  const nextFencingToken = (): number => Number(sql(SQLITE_SQL.nextFencingToken).get()?.value);
  const cancelIssue = (issueKey: string, now: number): string[] =>
    sql(SQLITE_SQL.requestCancel)
      .all(now, issueKey)
      .sort((a, b) => Number(a.seq) - Number(b.seq))
      .map((row) => String(row.id));
  const fenced = (text: string, lease: Lease, ...values: SQLInputValue[]): void => {
    const { changes } = sql(text).run(...values, lease.runId, lease.fencingToken, lease.leaseToken);
    if (Number(changes) === 0) throw new StaleLeaseError(lease.runId, lease.fencingToken);
  };

  return {
    async migrate() {
      transaction(() => {
        db.exec(SQLITE_SCHEMA);
        // A database made by an earlier version: add the columns it lacks (SQLite has no ADD COLUMN IF NOT EXISTS).
        for (const [table, column, definition] of SQLITE_ADDED_COLUMNS) {
          const columns = db.prepare(`PRAGMA table_info(${table})`).all();
          if (!columns.some((c) => c.name === column))
            db.exec(`ALTER TABLE ${table} ADD COLUMN ${column} ${definition}`);
        }
        db.exec(SQLITE_ADDED_INDEXES);
      });
    },

    async close() {
      await checkpointer?.stop();
      if (db.isOpen) db.close();
    },

    async recordEvent(event, subjectKey) {
      return transaction((): RecordOutcome => {
        const { changes } = sql(SQLITE_SQL.insertDelivery).run(event.deliveryId, event.receivedAt);
        if (Number(changes) === 0) return 'redelivery';
        if (subjectKey !== undefined) {
          const added = sql(SQLITE_SQL.insertSubject).run(subjectKey, event.deliveryId, event.receivedAt);
          if (Number(added.changes) === 0) {
            const first = sql(SQLITE_SQL.subjectDelivery).get(subjectKey);
            sql(SQLITE_SQL.markDuplicate).run(String(first?.delivery_id ?? ''), event.deliveryId);
            return 'duplicate';
          }
        }
        sql(SQLITE_SQL.insertEvent).run(...mapping.eventRowValues(event));
        return 'recorded';
      });
    },

    async takeEvent(leaseMs = DEFAULT_EVENT_LEASE_MS) {
      const now = Date.now();
      const row = transaction(() => sql(SQLITE_SQL.takeEvent).get(now + leaseMs, now));
      return row ? mapping.eventFromRow(row) : undefined;
    },

    async completeEvent(deliveryId) {
      transaction(() => sql(SQLITE_SQL.completeEvent).run(deliveryId));
    },

    async retryEvent(deliveryId, retryAt) {
      transaction(() => sql(SQLITE_SQL.retryEvent).run(retryAt, deliveryId));
    },

    async enqueue(input) {
      const { repoKey, issueKey } = runKeys(input.job);
      const now = Date.now();
      return transaction(() => {
        if (input.deliveryId !== undefined) {
          sql(SQLITE_SQL.completeEvent).run(input.deliveryId);
          const existing = sql(SQLITE_SQL.runByDelivery).get(input.deliveryId);
          if (existing) return { run: mapping.runFromRow(existing), cancelled: [], created: false };
        }
        const cancelled = input.perIssue === 'cancel' ? cancelIssue(issueKey, now) : [];
        const row = sql(SQLITE_SQL.insertRun).get(
          randomUUID(),
          JSON.stringify(input.job),
          input.installationId ?? null,
          repoKey,
          issueKey,
          input.adapter,
          now,
          now,
          input.deliveryId ?? null,
          input.conversationKey ?? null,
        );
        if (!row) throw new CorruptRowError('runs', 'id', 'the inserted run was not returned');
        return { run: mapping.runFromRow(row), cancelled, created: true };
      });
    },

    async claim(workerId, leaseMs, limits) {
      const now = Date.now();
      return transaction(() => {
        sql(SQLITE_SQL.cancelQueued).run(CANCELLED_BEFORE_START.conclusion, CANCELLED_BEFORE_START.reason, now);
        const inFlight = sql(SQLITE_SQL.inFlightKeys).all().map(mapping.inFlightKeysFromRow);
        const exclusions = claimExclusions(inFlight, limits);
        if (exclusions.none) return undefined;
        const only = exclusions.onlyAdapters === undefined ? null : JSON.stringify(exclusions.onlyAdapters);
        const candidate = sql(SQLITE_SQL.candidate).get(
          JSON.stringify(exclusions.issues),
          JSON.stringify(exclusions.repos),
          JSON.stringify(exclusions.adapters),
          only,
          only,
          JSON.stringify(exclusions.installations),
        );
        if (!candidate) return undefined;
        const fencingToken = nextFencingToken();
        const leaseToken = randomUUID();
        const expiresAt = now + leaseMs;
        const row = sql(SQLITE_SQL.startRun).get(
          fencingToken,
          workerId,
          leaseToken,
          expiresAt,
          now,
          String(candidate.id),
        );
        if (!row) throw new CorruptRowError('runs', 'id', 'the claimed run was not returned');
        const run = mapping.runFromRow(row);
        return { run, lease: { runId: run.id, workerId, leaseToken, fencingToken, expiresAt } };
      });
    },

    async renew(lease, leaseMs) {
      const now = Date.now();
      const expiresAt = now + leaseMs;
      transaction(() => fenced(SQLITE_SQL.renew, lease, expiresAt, now));
      return { ...lease, expiresAt };
    },

    async update(lease, patch) {
      if (patch.state !== undefined && !IN_FLIGHT_STATES.includes(patch.state)) {
        throw new InvalidRunStateError(lease.runId, patch.state, IN_FLIGHT_STATES);
      }
      const values = [patch.state ?? null, patch.checkRunId ?? null, patch.commentId ?? null, Date.now()];
      transaction(() => fenced(SQLITE_SQL.update, lease, ...values));
    },

    async finish(lease, outcome) {
      if (!isFinalState(outcome.state)) throw new InvalidRunStateError(lease.runId, outcome.state, FINAL_STATES);
      const values = [outcome.state, outcome.conclusion, outcome.reason ?? null, Date.now()];
      transaction(() => fenced(SQLITE_SQL.finish, lease, ...values));
    },

    async expiredRuns(now) {
      return sql(SQLITE_SQL.expiredRuns).all(now).map(mapping.runFromRow);
    },

    async recover(runId, fencingToken, action, reason, outcome) {
      const now = Date.now();
      const row: mapping.Row | undefined = transaction(() => {
        if (!sql(SQLITE_SQL.inFlightRun).get(runId, fencingToken)) return undefined;
        const next = nextFencingToken();
        if (action === 'reported' && outcome !== undefined) {
          return sql(SQLITE_SQL.concludeReported).get(outcome.state, outcome.conclusion, reason, next, now, runId);
        }
        return action === 'retry'
          ? sql(SQLITE_SQL.requeue).get(next, reason, now, runId)
          : sql(SQLITE_SQL.fail).get(RECOVERED_FAILURE_CONCLUSION, reason, next, now, runId);
      });
      return row ? mapping.runFromRow(row) : undefined;
    },

    async requestCancel(issueKey) {
      const now = Date.now();
      return transaction(() => cancelIssue(issueKey, now));
    },

    async get(runId) {
      const row = sql(SQLITE_SQL.get).get(runId);
      return row ? mapping.runFromRow(row) : undefined;
    },

    async list(filter = {}) {
      const states = filter.states === undefined ? null : JSON.stringify(filter.states);
      const issueKey = filter.issueKey ?? null;
      return sql(SQLITE_SQL.list).all(states, states, issueKey, issueKey).map(mapping.runFromRow);
    },

    async savePendingApproval(runId, issueKey, approval) {
      transaction(() =>
        sql(SQLITE_SQL.savePendingApproval).run(approval.approvalId, runId, issueKey, JSON.stringify(approval)),
      );
    },

    async removePendingApproval(approvalId) {
      transaction(() => sql(SQLITE_SQL.removePendingApproval).run(approvalId));
    },

    async pendingApprovals(filter) {
      const runId = filter.runId ?? null;
      const issueKey = filter.issueKey ?? null;
      return sql(SQLITE_SQL.pendingApprovals).all(runId, runId, issueKey, issueKey).map(mapping.pendingApprovalFromRow);
    },

    async supersedeApprovals(runId, reason) {
      const rows = transaction(() => {
        const moved = sql(SQLITE_SQL.supersedeApprovals).all(reason, runId);
        sql(SQLITE_SQL.removeRunApprovals).run(runId);
        return moved;
      });
      return rows.map(mapping.supersededApprovalFromRow);
    },

    async supersededApprovals(filter) {
      const runId = filter.runId ?? null;
      const issueKey = filter.issueKey ?? null;
      return sql(SQLITE_SQL.supersededApprovals)
        .all(runId, runId, issueKey, issueKey)
        .map(mapping.supersededApprovalFromRow);
    },

    async addAnswer(answer, deliveryId) {
      transaction(() => {
        // As on PostgreSQL: a delivery whose event is gone had its answer recorded already.
        if (deliveryId !== undefined && sql(SQLITE_SQL.completeEvent).run(deliveryId).changes === 0) return;
        sql(SQLITE_SQL.addAnswer).run(answer.issueKey, answer.kind, mapping.answerBody(answer), Date.now());
      });
    },

    async takeAnswers(issueKey) {
      const rows = transaction(() => sql(SQLITE_SQL.takeAnswers).all(issueKey));
      return rows.map(mapping.answerFromRow).sort((a, b) => a.id - b.id);
    },

    async loadConversation(key) {
      const row = sql(SQLITE_SQL.loadConversation).get(key.repository, key.number, key.agent);
      return row ? mapping.conversationFromRow(row, key) : undefined;
    },

    async saveConversation(key, conversation, owner) {
      refuseOverQuota(key, conversation.session.bytes, owner?.quotaBytes);
      const row = packConversation(conversation);
      const installation = owner?.installationId ?? null;
      const evicted = transaction(() => {
        sql(SQLITE_SQL.saveConversation).run(
          key.repository,
          key.number,
          key.agent,
          row.state,
          row.session,
          conversation.session.bytes,
          Date.parse(conversation.state.updatedAt),
          installation,
        );
        if (owner?.quotaBytes === undefined) return [];
        return sql(SQLITE_SQL.overQuota).all(installation, owner.quotaBytes);
      });
      throwIfEvicted(key, evicted, owner?.quotaBytes);
    },

    async forgetConversations(before) {
      return Number(transaction(() => sql(SQLITE_SQL.forgetConversations).run(before)).changes);
    },
  };
}

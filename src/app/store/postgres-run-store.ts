import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { packConversation } from '../../github/conversation/pack-conversation.ts';
import { claimExclusions } from './claim-exclusions.ts';
import { refuseOverQuota, throwIfEvicted } from './conversation-quota.ts';
import { CorruptRowError } from './corrupt-row-error.ts';
import { InvalidRunStateError } from './invalid-run-state-error.ts';
import { postgresSql, SCHEMA_NAME } from './postgres-sql.ts';
import {
  answerBody,
  answerFromRow,
  conversationFromRow,
  eventFromRow,
  eventRowValues,
  inFlightKeysFromRow,
  pendingApprovalFromRow,
  type Row,
  runFromRow,
  supersededApprovalFromRow,
} from './row-mapping.ts';
import { runKeys } from './run-keys.ts';
import { CANCELLED_BEFORE_START, IN_FLIGHT_STATES, isFinalState, RECOVERED_FAILURE_CONCLUSION } from './run-states.ts';
import { DEFAULT_EVENT_LEASE_MS, FINAL_STATES, type Lease, type RecordOutcome, type RunStore } from './run-store.ts';
import { StaleLeaseError } from './stale-lease-error.ts';
import { StoreConfigError } from './store-config-error.ts';
import { retryTransient } from './transient-error.ts';

export interface PostgresRunStoreOptions {
  /** `postgres://user:password@host:5432/database` */
  connectionString: string;
  /** The schema the tables live in (created by `migrate`); a lower-case identifier. Default `agent_mux`. */
  schema?: string;
  /** Connections in the pool. Default 10. */
  maxConnections?: number;
  /**
   * Called when an idle connection fails (the server restarted, the network dropped). The pool has
   * already discarded it and opens a new one on the next query; the default ignores the error.
   */
  onIdleError?: (error: Error) => void;
  /** Called when a statement or transaction met a transient failure and is tried again (for the log). */
  onRetry?: (error: unknown, attempt: number) => void;
}

type Queryable = Pick<pg.PoolClient, 'query'>;

/**
 * The `RunStore` for several replicas: PostgreSQL through a `pg.Pool`. Claims take a
 * transaction-scoped advisory lock (so the per-issue, per-repository and per-adapter limits hold
 * across replicas) and pick the run with `FOR UPDATE SKIP LOCKED`; fencing tokens come from a
 * sequence; events and answers are taken with `DELETE … RETURNING` over `SKIP LOCKED` rows, so each is
 * delivered once. The pool survives a server restart: broken connections are dropped and replaced.
 *
 * A queued run whose cancellation was requested is never claimed: `claim` concludes it `cancelled`
 * (conclusion `cancelled`) in its transaction.
 */
export function createPostgresRunStore(options: PostgresRunStoreOptions): RunStore {
  const schema = options.schema ?? 'agent_mux';
  if (!SCHEMA_NAME.test(schema)) {
    throw new StoreConfigError(`PostgreSQL schema name ${JSON.stringify(schema)} must match ${SCHEMA_NAME}`);
  }
  const sql = postgresSql(schema);
  const pool = new pg.Pool({
    connectionString: options.connectionString,
    max: options.maxConnections ?? 10,
    idleTimeoutMillis: 30_000,
    connectionTimeoutMillis: 10_000,
    keepAlive: true,
  });
  pool.on('error', (error) => options.onIdleError?.(error));
  // A connection ended while it is checked out emits 'error' with no listener of the pool's, which
  // would crash the process: between two statements of a transaction, or in the very chunk of bytes
  // that made a new connection ready, before `pool.connect()`'s caller can listen (seen under a
  // storm of pg_terminate_backend). Every connection keeps a listener of its own for its whole life;
  // the statement that meets the ended connection fails and is tried again.
  pool.on('connect', (client) => client.on('error', ignoreClientError));

  // A statement on the pool, and a whole transaction, are tried again after a transient failure (the
  // connection ended, a failover, a serialization failure): each is a unit that either committed or left
  // nothing behind. Statements inside a transaction are not: the transaction is retried as a whole.
  const retry = <T>(work: () => Promise<T>) => retryTransient(work, { onRetry: options.onRetry });
  const poolQuery = (text: string, values: unknown[]) => retry(() => pool.query<Row>(text, values));
  const query = async (text: string, values: unknown[] = [], client?: Queryable) =>
    (client === undefined ? await poolQuery(text, values) : await client.query<Row>(text, values)).rows;

  const transaction = <T>(work: (client: pg.PoolClient) => Promise<T>): Promise<T> =>
    retry(() => transactionOnce(work));

  async function transactionOnce<T>(work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
    const client = await pool.connect();
    let broken: Error | undefined;
    try {
      await client.query('BEGIN');
      const result = await work(client);
      await client.query('COMMIT');
      return result;
    } catch (error) {
      await client.query('ROLLBACK').catch((rollbackError: unknown) => {
        broken = rollbackError instanceof Error ? rollbackError : new Error(String(rollbackError));
      });
      throw error;
    } finally {
      client.release(broken);
    }
  }

  const cancelIssue = async (client: Queryable, issueKey: string, now: number) =>
    (await query(sql.requestCancel, [now, issueKey], client))
      .sort((a, b) => Number(a.seq) - Number(b.seq))
      .map((row) => String(row.id));

  async function fenced(text: string, lease: Lease, values: unknown[]): Promise<void> {
    const result = await poolQuery(text, [...values, lease.runId, lease.fencingToken, lease.leaseToken]);
    if (result.rowCount === 0) throw new StaleLeaseError(lease.runId, lease.fencingToken);
  }

  return {
    async migrate() {
      await transaction(async (client) => {
        await client.query(sql.migrateLock);
        await client.query(sql.schema);
      });
    },

    async close() {
      if (!pool.ended) await pool.end();
    },

    async recordEvent(event, subjectKey) {
      return transaction(async (client): Promise<RecordOutcome> => {
        const delivery = await client.query(sql.insertDelivery, [event.deliveryId, event.receivedAt]);
        if (delivery.rowCount === 0) return 'redelivery';
        if (subjectKey !== undefined) {
          const added = await client.query(sql.insertSubject, [subjectKey, event.deliveryId, event.receivedAt]);
          if (added.rowCount === 0) {
            const [first] = await query(sql.subjectDelivery, [subjectKey], client);
            await client.query(sql.markDuplicate, [String(first?.delivery_id ?? ''), event.deliveryId]);
            return 'duplicate';
          }
        }
        await client.query(sql.insertEvent, eventRowValues(event));
        return 'recorded';
      });
    },

    async takeEvent(leaseMs = DEFAULT_EVENT_LEASE_MS) {
      const now = Date.now();
      const [row] = await query(sql.takeEvent, [now + leaseMs, now]);
      return row ? eventFromRow(row) : undefined;
    },

    async completeEvent(deliveryId) {
      await poolQuery(sql.completeEvent, [deliveryId]);
    },

    async retryEvent(deliveryId, retryAt) {
      await poolQuery(sql.retryEvent, [retryAt, deliveryId]);
    },

    async enqueue(input) {
      const { repoKey, issueKey } = runKeys(input.job);
      const now = Date.now();
      return transaction(async (client) => {
        if (input.deliveryId !== undefined) {
          await client.query(sql.deliveryLock, [input.deliveryId]);
          await client.query(sql.completeEvent, [input.deliveryId]);
          const [existing] = await query(sql.runByDelivery, [input.deliveryId], client);
          if (existing) return { run: runFromRow(existing), cancelled: [], created: false };
        }
        const cancelled = input.perIssue === 'cancel' ? await cancelIssue(client, issueKey, now) : [];
        const values = [randomUUID(), JSON.stringify(input.job), input.installationId ?? null, repoKey, issueKey];
        const [row] = await query(
          sql.insertRun,
          [...values, input.adapter, now, input.deliveryId ?? null, input.conversationKey ?? null],
          client,
        );
        if (!row) throw new CorruptRowError('runs', 'id', 'the inserted run was not returned');
        return { run: runFromRow(row), cancelled, created: true };
      });
    },

    async claim(workerId, leaseMs, limits) {
      const now = Date.now();
      // Chosen before the transaction, so that its retry after a COMMIT whose reply was lost finds
      // the run it claimed instead of claiming another and leaving this one to expire.
      const leaseToken = randomUUID();
      const expiresAt = now + leaseMs;
      return transaction(async (client) => {
        await client.query(sql.claimLock);
        const [claimed] = await query(sql.runByLeaseToken, [leaseToken], client);
        if (claimed) {
          const run = runFromRow(claimed);
          return { run, lease: { runId: run.id, workerId, leaseToken, fencingToken: run.fencingToken, expiresAt } };
        }
        await client.query(sql.cancelQueued, [CANCELLED_BEFORE_START.conclusion, CANCELLED_BEFORE_START.reason, now]);
        const inFlight = (await query(sql.inFlightKeys, [], client)).map(inFlightKeysFromRow);
        const exclusions = claimExclusions(inFlight, limits);
        if (exclusions.none) return undefined;
        const [candidate] = await query(
          sql.candidate,
          [
            exclusions.issues,
            exclusions.repos,
            exclusions.adapters,
            exclusions.onlyAdapters ?? null,
            exclusions.installations,
          ],
          client,
        );
        if (!candidate) return undefined;
        const [row] = await query(sql.startRun, [workerId, leaseToken, expiresAt, now, candidate.id], client);
        if (!row) throw new CorruptRowError('runs', 'id', 'the claimed run was not returned');
        const run = runFromRow(row);
        return { run, lease: { runId: run.id, workerId, leaseToken, fencingToken: run.fencingToken, expiresAt } };
      });
    },

    async renew(lease, leaseMs) {
      const now = Date.now();
      const expiresAt = now + leaseMs;
      await fenced(sql.renew, lease, [expiresAt, now]);
      return { ...lease, expiresAt };
    },

    async update(lease, patch) {
      if (patch.state !== undefined && !IN_FLIGHT_STATES.includes(patch.state)) {
        throw new InvalidRunStateError(lease.runId, patch.state, IN_FLIGHT_STATES);
      }
      await fenced(sql.update, lease, [
        patch.state ?? null,
        patch.checkRunId ?? null,
        patch.commentId ?? null,
        Date.now(),
      ]);
    },

    async finish(lease, outcome) {
      if (!isFinalState(outcome.state)) throw new InvalidRunStateError(lease.runId, outcome.state, FINAL_STATES);
      await fenced(sql.finish, lease, [outcome.state, outcome.conclusion, outcome.reason ?? null, Date.now()]);
    },

    async expiredRuns(now) {
      return (await query(sql.expiredRuns, [now])).map(runFromRow);
    },

    async recover(runId, fencingToken, action, reason, outcome) {
      const values = [reason, Date.now(), runId, fencingToken];
      const [row] =
        action === 'retry'
          ? await query(sql.requeue, values)
          : action === 'reported' && outcome !== undefined
            ? await query(sql.concludeReported, [...values, outcome.state, outcome.conclusion])
            : await query(sql.fail, [...values, RECOVERED_FAILURE_CONCLUSION]);
      return row ? runFromRow(row) : undefined;
    },

    async requestCancel(issueKey) {
      return cancelIssue(pool, issueKey, Date.now());
    },

    async get(runId) {
      const [row] = await query(sql.get, [runId]);
      return row ? runFromRow(row) : undefined;
    },

    async list(filter = {}) {
      return (await query(sql.list, [filter.states ?? null, filter.issueKey ?? null])).map(runFromRow);
    },

    async savePendingApproval(runId, issueKey, approval) {
      await poolQuery(sql.savePendingApproval, [approval.approvalId, runId, issueKey, JSON.stringify(approval)]);
    },

    async removePendingApproval(approvalId) {
      await poolQuery(sql.removePendingApproval, [approvalId]);
    },

    async pendingApprovals(filter) {
      const rows = await query(sql.pendingApprovals, [filter.runId ?? null, filter.issueKey ?? null]);
      return rows.map(pendingApprovalFromRow);
    },

    async supersedeApprovals(runId, reason) {
      return (await query(sql.supersedeApprovals, [reason, runId])).map(supersededApprovalFromRow);
    },

    async supersededApprovals(filter) {
      const rows = await query(sql.supersededApprovals, [filter.runId ?? null, filter.issueKey ?? null]);
      return rows.map(supersededApprovalFromRow);
    },

    async addAnswer(answer, deliveryId) {
      const values = [answer.issueKey, answer.kind, answerBody(answer), Date.now()];
      if (deliveryId === undefined) {
        await poolQuery(sql.addAnswer, values);
        return;
      }
      await transaction(async (client) => {
        // No event left: a transaction that recorded this answer committed, and only its
        // acknowledgement was lost (or another reader completed it): nothing is recorded twice.
        const completed = await client.query(sql.completeEvent, [deliveryId]);
        if (completed.rowCount === 0) return;
        await client.query(sql.addAnswer, values);
      });
    },

    async takeAnswers(issueKey) {
      // Marked with this call's token, then deleted: a retry of the marking after its acknowledgement
      // was lost returns the same answers (a plain DELETE … RETURNING would have lost them).
      const token = randomUUID();
      const now = Date.now();
      const rows = await query(sql.takeAnswers, [issueKey, token, now]);
      // Deleted at once, and any left by a call that could not delete them within the hour.
      await poolQuery(sql.forgetTakenAnswers, [token, now - TAKEN_ANSWERS_KEPT_MS]).catch(() => undefined);
      return rows.map(answerFromRow).sort((a, b) => a.id - b.id);
    },

    async loadConversation(key) {
      const [row] = await query(sql.loadConversation, [key.repository, key.number, key.agent]);
      return row ? conversationFromRow(row, key) : undefined;
    },

    async saveConversation(key, conversation, owner) {
      refuseOverQuota(key, conversation.session.bytes, owner?.quotaBytes);
      const row = packConversation(conversation);
      const installation = owner?.installationId ?? null;
      const evicted = await transaction(async (client) => {
        if (owner?.quotaBytes !== undefined) await client.query(sql.quotaLock, [String(installation ?? '')]);
        await query(
          sql.saveConversation,
          [
            key.repository,
            key.number,
            key.agent,
            row.state,
            Buffer.from(row.session),
            conversation.session.bytes,
            Date.parse(conversation.state.updatedAt),
            installation,
          ],
          client,
        );
        if (owner?.quotaBytes === undefined) return [];
        return query(sql.overQuota, [installation, owner.quotaBytes], client);
      });
      throwIfEvicted(key, evicted, owner?.quotaBytes);
    },

    async forgetConversations(before) {
      return (await poolQuery(sql.forgetConversations, [before])).rowCount ?? 0;
    },
  };
}

/** What a connection's own 'error' listener does: nothing (see `pool.on('connect')`). */
function ignoreClientError(): void {}

/** How long an answer taken but not deleted (the delete met the database away) stays before any later call deletes it. */
const TAKEN_ANSWERS_KEPT_MS = 60 * 60 * 1000;

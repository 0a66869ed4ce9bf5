import { randomUUID } from 'node:crypto';
import { packConversation } from '../../github/conversation/pack-conversation.ts';
import { checkSpend } from '../../github/limits/check-spend.ts';
import { claimExclusions } from './claim-exclusions.ts';
import { refuseOverQuota, throwIfEvicted } from './conversation-quota.ts';
import { CorruptRowError } from './corrupt-row-error.ts';
import { InvalidRunStateError } from './invalid-run-state-error.ts';
import * as mapping from './row-mapping.ts';
import { runKeys } from './run-keys.ts';
import { CANCELLED_BEFORE_START, IN_FLIGHT_STATES, isFinalState, RECOVERED_FAILURE_CONCLUSION } from './run-states.ts';
import { DEFAULT_EVENT_LEASE_MS, FINAL_STATES, type Lease, type RecordOutcome, type RunStore } from './run-store.ts';
import { spendFromRow } from './spend-from-row.ts';
import { StaleLeaseError } from './stale-lease-error.ts';
import type { StoreDialect, StoreSession, StoreStatements } from './store-dialect.ts';

/** How long an answer taken but not deleted (the delete met the database away) stays before any later call deletes it. */
const TAKEN_ANSWERS_KEPT_MS = 60 * 60 * 1000;
/** How long an add's token is kept: far longer than the retries of one add (about a second) take. */
const SPEND_ADDS_KEPT_MS = 60 * 60 * 1000;

/**
 * The `RunStore` over a SQL dialect: the one logic both backends run. Every unit of work is a
 * single statement or a transaction that is safe to run again after a transient failure (a claim
 * chooses its lease token before its transaction and finds the run it claimed if a retry follows a
 * lost COMMIT; answers are marked with a token before they are deleted; an add of spend records a
 * token with it).
 *
 * A queued run whose cancellation was requested is never claimed: `claim` concludes it `cancelled`
 * (conclusion `cancelled`) in its transaction.
 */
export class SqlRunStore implements RunStore {
  private readonly sql: StoreStatements;
  private readonly single: StoreSession;

  private readonly dialect: StoreDialect;

  constructor(dialect: StoreDialect) {
    this.dialect = dialect;
    this.sql = dialect.sql;
    this.single = dialect.single;
  }

  private async first(session: StoreSession, text: string, values: readonly unknown[]) {
    return (await session.rows(text, values))[0];
  }

  private async cancelIssue(session: StoreSession, issueKey: string, now: number) {
    return (await session.rows(this.sql.requestCancel, [now, issueKey]))
      .sort((a, b) => Number(a.seq) - Number(b.seq))
      .map((row) => String(row.id));
  }

  private async nextLeaseEpoch(tx: StoreSession) {
    return Number((await this.first(tx, this.sql.nextLeaseEpoch, []))?.value);
  }

  private async fenced(text: string, lease: Lease, values: readonly unknown[]) {
    const changed = await this.single.changes(text, [...values, lease.runId, lease.leaseEpoch, lease.leaseToken]);
    if (changed === 0) throw new StaleLeaseError(lease.runId, lease.leaseEpoch);
  }

  private filterValues(filter: { runId?: string; issueKey?: string }) {
    return [filter.runId ?? null, filter.issueKey ?? null];
  }

  // Every method is an own property (an arrow function bound to this store): a caller may spread the
  // store into a wrapper (`{ ...store, recordEvent }`) as the tests' fault stand-ins do.
  readonly migrate: RunStore['migrate'] = () => this.dialect.migrate();
  readonly close: RunStore['close'] = () => this.dialect.close();

  readonly recordEvent: RunStore['recordEvent'] = async (event, subjectKey) => {
    return this.dialect.transaction(async (tx): Promise<RecordOutcome> => {
      if ((await tx.changes(this.sql.insertDelivery, [event.deliveryId, event.receivedAt])) === 0) return 'redelivery';
      if (subjectKey !== undefined) {
        const added = await tx.changes(this.sql.insertSubject, [subjectKey, event.deliveryId, event.receivedAt]);
        if (added === 0) {
          const earlier = await this.first(tx, this.sql.subjectDelivery, [subjectKey]);
          await tx.changes(this.sql.markDuplicate, [String(earlier?.delivery_id ?? ''), event.deliveryId]);
          return 'duplicate';
        }
      }
      await tx.changes(this.sql.insertEvent, mapping.eventRowValues(event));
      return 'recorded';
    });
  };

  readonly takeEvent: RunStore['takeEvent'] = async (leaseMs = DEFAULT_EVENT_LEASE_MS) => {
    const now = Date.now();
    const row = await this.first(this.single, this.sql.takeEvent, [now + leaseMs, now]);
    return row ? mapping.eventFromRow(row) : undefined;
  };

  readonly completeEvent: RunStore['completeEvent'] = async (deliveryId) => {
    await this.single.changes(this.sql.completeEvent, [deliveryId]);
  };

  readonly retryEvent: RunStore['retryEvent'] = async (deliveryId, retryAt) => {
    await this.single.changes(this.sql.retryEvent, [retryAt, deliveryId]);
  };

  readonly enqueue: RunStore['enqueue'] = async (input) => {
    const { repoKey, issueKey } = runKeys(input.job);
    const now = Date.now();
    return this.dialect.transaction(async (tx) => {
      if (input.deliveryId !== undefined) {
        // One delivery queues one run: concurrent enqueues of it are serialized.
        await this.dialect.lock(tx, 'delivery', input.deliveryId);
        await tx.changes(this.sql.completeEvent, [input.deliveryId]);
        const existing = await this.first(tx, this.sql.runByDelivery, [input.deliveryId]);
        if (existing) return { run: mapping.runFromRow(existing), cancelled: [], created: false };
      }
      const cancelled = input.perIssue === 'cancel' ? await this.cancelIssue(tx, issueKey, now) : [];
      const row = await this.first(tx, this.sql.insertRun, [
        randomUUID(),
        JSON.stringify(input.job),
        input.installationId ?? null,
        repoKey,
        issueKey,
        input.adapter,
        now,
        input.deliveryId ?? null,
        input.conversationKey ?? null,
      ]);
      if (!row) throw new CorruptRowError('runs', 'id', 'the inserted run was not returned');
      return { run: mapping.runFromRow(row), cancelled, created: true };
    });
  };

  readonly claim: RunStore['claim'] = async (workerId, leaseMs, limits) => {
    const now = Date.now();
    // Chosen before the transaction, so that its retry after a COMMIT whose reply was lost finds
    // the run it claimed instead of claiming another and leaving this one to expire.
    const leaseToken = randomUUID();
    const expiresAt = now + leaseMs;
    const leased = (row: mapping.Row) => {
      const run = mapping.runFromRow(row);
      return { run, lease: { runId: run.id, workerId, leaseToken, leaseEpoch: run.leaseEpoch, expiresAt } };
    };
    return this.dialect.transaction(async (tx) => {
      // Claims are serialized, so that the issue, repository and adapter limits hold across replicas.
      await this.dialect.lock(tx, 'claim');
      const claimed = await this.first(tx, this.sql.runByLeaseToken, [leaseToken]);
      if (claimed) return leased(claimed);
      await tx.changes(this.sql.cancelQueued, [CANCELLED_BEFORE_START.conclusion, CANCELLED_BEFORE_START.reason, now]);
      const inFlight = (await tx.rows(this.sql.inFlightKeys)).map(mapping.inFlightKeysFromRow);
      const exclusions = claimExclusions(inFlight, limits);
      if (exclusions.none) return undefined;
      const candidate = await this.first(tx, this.sql.candidate, [
        this.dialect.list(exclusions.issues),
        this.dialect.list(exclusions.repos),
        this.dialect.list(exclusions.adapters),
        this.dialect.list(exclusions.onlyAdapters),
        this.dialect.list(exclusions.installations),
      ]);
      if (!candidate) return undefined;
      const leaseEpoch = await this.nextLeaseEpoch(tx);
      const row = await this.first(tx, this.sql.startRun, [
        leaseEpoch,
        workerId,
        leaseToken,
        expiresAt,
        now,
        candidate.id,
      ]);
      if (!row) throw new CorruptRowError('runs', 'id', 'the claimed run was not returned');
      return leased(row);
    });
  };

  readonly renew: RunStore['renew'] = async (lease, leaseMs) => {
    const now = Date.now();
    const expiresAt = now + leaseMs;
    await this.fenced(this.sql.renew, lease, [expiresAt, now]);
    return { ...lease, expiresAt };
  };

  readonly update: RunStore['update'] = async (lease, patch) => {
    if (patch.state !== undefined && !IN_FLIGHT_STATES.includes(patch.state)) {
      throw new InvalidRunStateError(lease.runId, patch.state, IN_FLIGHT_STATES);
    }
    await this.fenced(this.sql.update, lease, [
      patch.state ?? null,
      patch.checkRunId ?? null,
      patch.commentId ?? null,
      Date.now(),
    ]);
  };

  readonly finish: RunStore['finish'] = async (lease, outcome) => {
    if (!isFinalState(outcome.state)) throw new InvalidRunStateError(lease.runId, outcome.state, FINAL_STATES);
    await this.fenced(this.sql.finish, lease, [outcome.state, outcome.conclusion, outcome.reason ?? null, Date.now()]);
  };

  readonly expiredRuns: RunStore['expiredRuns'] = async (now) => {
    return (await this.single.rows(this.sql.expiredRuns, [now])).map(mapping.runFromRow);
  };

  readonly recover: RunStore['recover'] = async (runId, leaseEpoch, action, reason, outcome) => {
    const row = await this.dialect.transaction(async (tx) => {
      // Only while the run is still in flight under `leaseEpoch`: the statements say so in their WHERE.
      const values = [reason, Date.now(), runId, leaseEpoch, await this.nextLeaseEpoch(tx)];
      if (action === 'retry') return this.first(tx, this.sql.requeue, values);
      if (action === 'reported' && outcome !== undefined) {
        return this.first(tx, this.sql.concludeReported, [...values, outcome.state, outcome.conclusion]);
      }
      return this.first(tx, this.sql.fail, [...values, RECOVERED_FAILURE_CONCLUSION]);
    });
    return row ? mapping.runFromRow(row) : undefined;
  };

  readonly requestCancel: RunStore['requestCancel'] = async (issueKey) => {
    return this.cancelIssue(this.single, issueKey, Date.now());
  };

  readonly get: RunStore['get'] = async (runId) => {
    const row = await this.first(this.single, this.sql.get, [runId]);
    return row ? mapping.runFromRow(row) : undefined;
  };

  readonly list: RunStore['list'] = async (filter = {}) => {
    const rows = await this.single.rows(this.sql.list, [this.dialect.list(filter.states), filter.issueKey ?? null]);
    return rows.map(mapping.runFromRow);
  };

  readonly savePendingApproval: RunStore['savePendingApproval'] = async (runId, issueKey, approval) => {
    await this.single.changes(this.sql.savePendingApproval, [
      approval.approvalId,
      runId,
      issueKey,
      JSON.stringify(approval),
    ]);
  };

  readonly removePendingApproval: RunStore['removePendingApproval'] = async (approvalId) => {
    await this.single.changes(this.sql.removePendingApproval, [approvalId]);
  };

  readonly pendingApprovals: RunStore['pendingApprovals'] = async (filter) => {
    return (await this.single.rows(this.sql.pendingApprovals, this.filterValues(filter))).map(
      mapping.pendingApprovalFromRow,
    );
  };

  readonly supersedeApprovals: RunStore['supersedeApprovals'] = async (runId, reason) => {
    const rows = await this.dialect.transaction(async (tx) => {
      const moved = await tx.rows(this.sql.supersedeApprovals, [reason, runId]);
      await tx.changes(this.sql.removeRunApprovals, [runId]);
      return moved;
    });
    return rows.map(mapping.supersededApprovalFromRow);
  };

  readonly supersededApprovals: RunStore['supersededApprovals'] = async (filter) => {
    return (await this.single.rows(this.sql.supersededApprovals, this.filterValues(filter))).map(
      mapping.supersededApprovalFromRow,
    );
  };

  readonly addAnswer: RunStore['addAnswer'] = async (answer, deliveryId) => {
    const values = [answer.issueKey, answer.kind, mapping.answerBody(answer), Date.now()];
    if (deliveryId === undefined) {
      await this.single.changes(this.sql.addAnswer, values);
      return;
    }
    await this.dialect.transaction(async (tx) => {
      // No event left: a transaction that recorded this answer committed, and only its
      // acknowledgement was lost (or another reader completed it): nothing is recorded twice.
      if ((await tx.changes(this.sql.completeEvent, [deliveryId])) === 0) return;
      await tx.changes(this.sql.addAnswer, values);
    });
  };

  readonly takeAnswers: RunStore['takeAnswers'] = async (issueKey) => {
    // Marked with this call's token, then deleted: a retry of the marking after its acknowledgement
    // was lost returns the same answers (a plain DELETE … RETURNING would have lost them).
    const token = randomUUID();
    const now = Date.now();
    const rows = await this.single.rows(this.sql.takeAnswers, [issueKey, token, now]);
    // Deleted at once, and any left by a call that could not delete them within the hour.
    await this.single.changes(this.sql.forgetTakenAnswers, [token, now - TAKEN_ANSWERS_KEPT_MS]).catch(() => undefined);
    return rows.map(mapping.answerFromRow).sort((a, b) => a.id - b.id);
  };

  readonly loadConversation: RunStore['loadConversation'] = async (key) => {
    const row = await this.first(this.single, this.sql.loadConversation, [key.repository, key.number, key.agent]);
    return row ? mapping.conversationFromRow(row, key) : undefined;
  };

  readonly saveConversation: RunStore['saveConversation'] = async (key, conversation, owner) => {
    refuseOverQuota(key, conversation.session.bytes, owner?.quotaBytes);
    const row = packConversation(conversation);
    const installation = owner?.installationId ?? null;
    const evicted = await this.dialect.transaction(async (tx) => {
      // The quota's saves of one installation are serialized (key: its id, or '' for none).
      if (owner?.quotaBytes !== undefined) await this.dialect.lock(tx, 'quota', String(installation ?? ''));
      await tx.changes(this.sql.saveConversation, [
        key.repository,
        key.number,
        key.agent,
        row.state,
        this.dialect.bytes(row.session),
        conversation.session.bytes,
        Date.parse(conversation.state.updatedAt),
        installation,
      ]);
      if (owner?.quotaBytes === undefined) return [];
      return tx.rows(this.sql.overQuota, [installation, owner.quotaBytes]);
    });
    throwIfEvicted(key, evicted, owner?.quotaBytes);
  };

  readonly forgetConversations: RunStore['forgetConversations'] = async (before) => {
    return this.single.changes(this.sql.forgetConversations, [before]);
  };

  readonly spentOn: RunStore['spentOn'] = async (scope, day) => {
    return spendFromRow(await this.first(this.single, this.sql.spentOn, [scope, day]));
  };

  readonly addSpend: RunStore['addSpend'] = async (scope, day, spend) => {
    const { usd, tokens } = checkSpend(spend);
    // The add itself is one upsert (`usd = spend.usd + excluded.usd`): adds of other replicas wait on
    // the day's row and none is lost. Its token, chosen before the transaction, is recorded with it:
    // the retry of an add whose COMMIT was applied but not acknowledged finds the token and returns
    // the day's total instead of adding the spend a second time.
    const token = randomUUID();
    const now = Date.now();
    const row = await this.dialect.transaction(async (tx) => {
      if ((await tx.changes(this.sql.markSpendAdd, [token, now])) === 0) {
        return this.first(tx, this.sql.spentOn, [scope, day]);
      }
      return this.first(tx, this.sql.addSpend, [scope, day, usd, tokens]);
    });
    // Tokens older than any retry are forgotten; one left by a failed delete goes with a later add.
    await this.single.changes(this.sql.forgetSpendAdds, [now - SPEND_ADDS_KEPT_MS]).catch(() => undefined);
    return spendFromRow(row);
  };
}

/** The store's one logic over `dialect` (see `SqlRunStore`). */
export function createSqlRunStore(dialect: StoreDialect): RunStore {
  return new SqlRunStore(dialect);
}

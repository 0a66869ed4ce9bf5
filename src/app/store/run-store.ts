import type { ApprovalAnswer, PendingApproval } from '../../github/approvals/github-approval-channel.ts';
import type { ConversationKey } from '../../github/conversation/conversation-state.ts';
import type { StoredConversation } from '../../github/conversation/conversation-store.ts';
import type { Spend, SpendScope } from '../../github/limits/spend-ledger.ts';
import type { SteerCandidate } from '../../github/steering/run-steering.ts';
import type { RunJob } from '../../github/use-cases/run-job.ts';

/**
 * The app's durable state and work queue. Two implementations share one contract test suite:
 * SQLite (the embedded default, a file under ./data) and PostgreSQL (DATABASE_URL=postgres://…,
 * several app replicas share one queue). Nothing here is kept only in memory.
 */

/** A webhook delivery waiting to be read (handlers only record it; a dispatcher decides what it asks). */
export interface StoredEvent {
  deliveryId: string;
  name: string;
  payload: unknown;
  installationId: number | undefined;
  receivedAt: number;
  /**
   * Events with the same order key (an issue or pull request: `webhookOrderKey`) are dispatched one at a
   * time, oldest first; events with different keys (or none) may be dispatched concurrently.
   */
  orderKey?: string;
  /** Dispatches of this event that failed before and were put back (`retryEvent`); 0 the first time. */
  attempts?: number;
}

/** What `recordEvent` did: queued the event, or recognized a delivery seen before or a subject seen before. */
export type RecordOutcome = 'recorded' | 'redelivery' | 'duplicate';

/** How long `takeEvent` leases an event unless told otherwise. */
export const DEFAULT_EVENT_LEASE_MS = 60_000;

export type RunState = 'queued' | 'running' | 'awaiting_approval' | 'succeeded' | 'failed' | 'cancelled' | 'timed_out';

export const FINAL_STATES: readonly RunState[] = ['succeeded', 'failed', 'cancelled', 'timed_out'];

export interface StoredRun {
  id: string;
  job: RunJob;
  installationId: number | undefined;
  state: RunState;
  /** `owner/repo` */
  repoKey: string;
  /** `owner/repo#N`, or `owner/repo#` for a run without an issue. */
  issueKey: string;
  /** The adapter id, for per-adapter concurrency. */
  adapter: string;
  attempts: number;
  /**
   * The lease epoch: incremented by every claim and takeover; a write carrying an older one is
   * rejected. Column `fencing_token`; ca-http-v1 calls it the fencing token.
   */
  leaseEpoch: number;
  leaseOwner: string | undefined;
  leaseToken: string | undefined;
  leaseExpiresAt: number | undefined;
  checkRunId: number | undefined;
  commentId: number | undefined;
  cancelRequested: boolean;
  conclusion: string | undefined;
  reason: string | undefined;
  createdAt: number;
  updatedAt: number;
}

/** What a worker holds while it runs a run; every write it makes presents it. */
export interface Lease {
  runId: string;
  workerId: string;
  leaseToken: string;
  leaseEpoch: number;
  expiresAt: number;
}

export interface ConcurrencyLimits {
  /** Runs in flight per repository. */
  perRepo: number;
  /** Runs in flight per adapter id (a remote's `maxConcurrentSessions`); ids not listed use `defaultPerAdapter`. */
  perAdapter: Readonly<Record<string, number>>;
  defaultPerAdapter: number;
  /**
   * Runs in flight per installation (a tenant of the app): one installation's backlog cannot take
   * every worker. Unset: no cap. Whatever the cap, claims go round the installations with queued
   * runs (the one served least recently first), so one installation's 60 queued runs do not all
   * start before another's one.
   */
  perInstallation?: number;
}

/** Whose a conversation is, for the per-installation store quota. */
export interface ConversationOwner {
  installationId: number | undefined;
  /** The most the installation's conversations may keep together; unset: no quota. */
  quotaBytes?: number;
}

/** A pending approval of an attempt that recovery took over: it will never be decided. */
export type SupersededApproval = PendingApproval & { runId: string; issueKey: string; reason: string };

/** An answer to an approval recorded by a webhook handler (any replica) for the worker that waits on it. */
export type StoredAnswer =
  | { id: number; kind: 'answer'; issueKey: string; answer: ApprovalAnswer; receivedAt: number }
  /** A new push: every pending approval of the issue's run is void. */
  | { id: number; kind: 'void'; issueKey: string; reason: string; receivedAt: number }
  /** A mention made while the issue's run is in progress: offered to its running agent (steering). */
  | { id: number; kind: 'steer'; issueKey: string; steer: SteerCandidate; receivedAt: number };

/** A `StoredAnswer` before the store gives it an id and a time (`Omit` applied to each member of the union). */
export type NewStoredAnswer = StoredAnswer extends infer A
  ? A extends unknown
    ? Omit<A, 'id' | 'receivedAt'>
    : never
  : never;

export interface RunStore {
  /** Creates the tables (idempotent). */
  migrate(): Promise<void>;
  close(): Promise<void>;

  /**
   * Records a webhook delivery and queues it to be read, unless it is a `redelivery` (its delivery id
   * was seen before) or a `duplicate`: another delivery already carried its `subjectKey` (what the
   * event is about, e.g. `issue_comment:<id>:created`; see `webhookSubjectKey`), as a captured signed
   * payload re-sent under a new delivery id does. Either is recorded and starts or answers nothing.
   */
  recordEvent(event: StoredEvent, subjectKey?: string): Promise<RecordOutcome>;
  /**
   * Leases the oldest event that may be dispatched now: not leased (or its lease expired: the reader
   * died) and no older event of its `orderKey` left. One reader at a time holds it, across replicas.
   * The event stays stored until its outcome is: `completeEvent`, or atomically with that outcome
   * (`enqueue`, `addAnswer` given its `deliveryId`). A reader killed in between leaves it to be
   * taken again once the lease (`leaseMs`, default 60 000) expired.
   */
  takeEvent(leaseMs?: number): Promise<StoredEvent | undefined>;
  /** Deletes a taken event whose outcome needs no store write (ignored, cancel, void). Idempotent. */
  completeEvent(deliveryId: string): Promise<void>;
  /**
   * Puts a taken event back after a dispatch that failed for a passing reason (its outcome was not
   * written): it may be taken again from `retryAt` (ms), its `attempts` one higher, and the events of
   * its order key still wait behind it. Nothing happens to an event no longer stored.
   */
  retryEvent(deliveryId: string, retryAt: number): Promise<void>;

  /**
   * Queues a run. With `perIssue: 'cancel'`, runs of the same issue that are queued or in flight
   * get `cancelRequested` (their ids are returned); with `'queue'` the new run waits its turn.
   *
   * With `deliveryId` (the webhook the run comes from) the event is completed in the same transaction,
   * and a delivery queues at most one run: enqueuing it again returns the run queued the first time
   * (`created: false`) and cancels nothing.
   */
  enqueue(input: {
    job: RunJob;
    installationId: number | undefined;
    adapter: string;
    perIssue: 'queue' | 'cancel';
    deliveryId?: string;
    /**
     * The conversation the run is a turn of when that is not its issue (`owner/repo#N` of the issue
     * a pull request was opened for): the run is not claimed while a run of that issue is in
     * flight, nor one of the issue while this one is.
     */
    conversationKey?: string;
  }): Promise<{ run: StoredRun; cancelled: string[]; created: boolean }>;

  /**
   * Claims the oldest queued run that may start: no other run of its issue in flight, and the
   * repository's and adapter's limits not reached. Sets state `running`, a new lease token and a
   * lease epoch higher than any before. PostgreSQL: `FOR UPDATE SKIP LOCKED`.
   */
  claim(
    workerId: string,
    leaseMs: number,
    limits: ConcurrencyLimits,
  ): Promise<{ run: StoredRun; lease: Lease } | undefined>;
  /** Extends a lease. Throws `StaleLeaseError` when the run's lease epoch moved on (taken over). */
  renew(lease: Lease, leaseMs: number): Promise<Lease>;
  /** A fenced write (state `running` ↔ `awaiting_approval`, check run and comment ids). Throws `StaleLeaseError`. */
  update(lease: Lease, patch: { state?: RunState; checkRunId?: number; commentId?: number }): Promise<void>;
  /** The fenced final write: a final state, conclusion and reason; the lease ends. Throws `StaleLeaseError`. */
  finish(lease: Lease, outcome: { state: RunState; conclusion: string; reason?: string }): Promise<void>;

  /** Runs in flight (`running`, `awaiting_approval`) whose lease expired before `now`. */
  expiredRuns(now: number): Promise<StoredRun[]>;
  /**
   * Takes over an expired run (its lease epoch must still be `leaseEpoch`, else undefined):
   * `retry` puts it back to `queued` (attempts + 1; its check run is forgotten, as the retry makes
   * its own), `fail` concludes it `failed` with the reason, and `reported` concludes it as its worker
   * had reported it on GitHub before it stopped (`outcome`: the worker concluded the check run, then
   * died or could not save). Every way the lease epoch is bumped, so the old worker's late writes
   * are rejected.
   */
  recover(
    runId: string,
    leaseEpoch: number,
    action: 'retry' | 'fail' | 'reported',
    reason: string,
    outcome?: { state: RunState; conclusion: string },
  ): Promise<StoredRun | undefined>;

  /** Marks the queued or in-flight runs of an issue as to be cancelled; returns their ids. */
  requestCancel(issueKey: string): Promise<string[]>;
  get(runId: string): Promise<StoredRun | undefined>;
  /** Runs by state (for tests, the admin and recovery). */
  list(filter?: { states?: readonly RunState[]; issueKey?: string }): Promise<StoredRun[]>;

  /** The approvals a run waits on, so that they survive a restart. */
  savePendingApproval(runId: string, issueKey: string, approval: PendingApproval): Promise<void>;
  removePendingApproval(approvalId: string): Promise<void>;
  pendingApprovals(filter: {
    runId?: string;
    issueKey?: string;
  }): Promise<(PendingApproval & { runId: string; issueKey: string })[]>;

  /**
   * Moves a run's pending approvals to the superseded ones (recovery took the run over: its old
   * attempt will never decide them) with the reason; returns what was moved.
   */
  supersedeApprovals(runId: string, reason: string): Promise<SupersededApproval[]>;
  /** Approvals of dead attempts, so that an answer to one can be told it came too late. */
  supersededApprovals(filter: { runId?: string; issueKey?: string }): Promise<SupersededApproval[]>;

  /**
   * Records an answer (or a void) for the run of an issue, from whichever replica got the webhook; with
   * `deliveryId`, completes that event in the same transaction.
   */
  addAnswer(answer: NewStoredAnswer, deliveryId?: string): Promise<void>;
  /** Takes (and deletes) the answers recorded for an issue since the last take. */
  takeAnswers(issueKey: string): Promise<StoredAnswer[]>;

  /**
   * A conversation's last saved turn: its state and its agent session's files (so that a worker of
   * any replica can resume it), or undefined. Throws `ConversationStoreError` for a row that does not read.
   */
  loadConversation(key: ConversationKey): Promise<StoredConversation | undefined>;
  /**
   * Keeps a conversation's latest turn in place of the one before, unless the stored one is newer.
   * With `owner.quotaBytes`, the installation's conversations together keep at most that many
   * bytes: its least recently saved ones are deleted to make room (an installation can only crowd
   * out its own). One that alone is over the quota is not kept: `ConversationStoreError`.
   */
  saveConversation(key: ConversationKey, conversation: StoredConversation, owner?: ConversationOwner): Promise<void>;
  /** Deletes the conversations whose last turn ended before `before` (ms since the epoch); returns how many. */
  forgetConversations(before: number): Promise<number>;

  /**
   * What was spent in `scope` on `day` (`YYYY-MM-DD`, UTC), shared by every replica; nothing spent
   * is `{ usd: 0, tokens: 0 }`. `SpendLedger.spentOn`.
   */
  spentOn(scope: SpendScope, day: string): Promise<Spend>;
  /**
   * Adds `spend` to `scope`'s `day` and returns the day's new total: one atomic upsert, so replicas
   * adding at once lose no addition, and an add tried again after its acknowledgement was lost is
   * counted once. Throws `SpendLedgerError` (`spend_invalid`) for a negative or non-finite amount or
   * a fraction of a token. `SpendLedger.add`: `{ spentOn: store.spentOn, add: store.addSpend }` is one.
   */
  addSpend(scope: SpendScope, day: string, spend: Spend): Promise<Spend>;
}

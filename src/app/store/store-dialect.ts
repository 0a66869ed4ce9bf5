import type { Row } from './row-mapping.ts';

/**
 * Every statement the store runs, by name: each dialect gives its own text with the same
 * parameters in the same order (`$n` in PostgreSQL, `?n` in SQLite), so the store's logic
 * (`createSqlRunStore`) is written once.
 */
export interface StoreStatements {
  insertDelivery: string;
  insertSubject: string;
  subjectDelivery: string;
  markDuplicate: string;
  insertEvent: string;
  takeEvent: string;
  completeEvent: string;
  retryEvent: string;
  runByDelivery: string;
  insertRun: string;
  requestCancel: string;
  cancelQueued: string;
  inFlightKeys: string;
  candidate: string;
  runByLeaseToken: string;
  nextLeaseEpoch: string;
  startRun: string;
  renew: string;
  update: string;
  finish: string;
  expiredRuns: string;
  requeue: string;
  concludeReported: string;
  fail: string;
  get: string;
  list: string;
  savePendingApproval: string;
  removePendingApproval: string;
  supersedeApprovals: string;
  removeRunApprovals: string;
  supersededApprovals: string;
  pendingApprovals: string;
  addAnswer: string;
  takeAnswers: string;
  forgetTakenAnswers: string;
  loadConversation: string;
  saveConversation: string;
  overQuota: string;
  forgetConversations: string;
  spentOn: string;
  markSpendAdd: string;
  addSpend: string;
  forgetSpendAdds: string;
}

/** One place statements run: a connection outside any transaction, or one transaction. */
export interface StoreSession {
  /** The rows the statement returns (none for a statement without RETURNING). */
  rows(text: string, values?: readonly unknown[]): Promise<Row[]>;
  /** How many rows the statement changed. */
  changes(text: string, values?: readonly unknown[]): Promise<number>;
}

/** The serializations a store's writes take, besides the transaction itself. */
export type StoreLock = 'claim' | 'delivery' | 'quota';

/** What differs between SQLite and PostgreSQL: the statements, how they run, how values are passed. */
export interface StoreDialect {
  sql: StoreStatements;
  /**
   * A statement on its own: a unit that committed or left nothing (PostgreSQL: on the pool, tried
   * again after a transient failure).
   */
  single: StoreSession;
  /**
   * `work` in one transaction, committed when it resolves and rolled back when it throws
   * (PostgreSQL: the whole transaction tried again after a transient failure, so `work` must be
   * safe to run twice; SQLite: `BEGIN IMMEDIATE`, one at a time on the handle).
   */
  transaction<T>(work: (tx: StoreSession) => Promise<T>): Promise<T>;
  /**
   * Serializes the transaction with every other one taking `lock` (for `key`) until it ends:
   * PostgreSQL's transaction-scoped advisory locks across replicas; nothing on SQLite, whose
   * `BEGIN IMMEDIATE` already holds the file's one write lock.
   */
  lock(tx: StoreSession, lock: StoreLock, key?: string): Promise<void>;
  /** A list parameter (a `text[]` in PostgreSQL, JSON read with `json_each` in SQLite); `undefined` is NULL. */
  list(values: readonly string[] | undefined): unknown;
  /** A binary parameter. */
  bytes(value: Uint8Array): unknown;
  migrate(): Promise<void>;
  close(): Promise<void>;
}

import { type PostgresDialectOptions, postgresDialect } from './postgres-dialect.ts';
import type { RunStore } from './run-store.ts';
import { createSqlRunStore } from './sql-run-store.ts';

export type PostgresRunStoreOptions = PostgresDialectOptions;

/**
 * The `RunStore` for several replicas: the store's one logic (`createSqlRunStore`) over PostgreSQL
 * (`postgresDialect`). Claims take a transaction-scoped advisory lock (so the per-issue,
 * per-repository and per-adapter limits hold across replicas) and pick the run with `FOR UPDATE
 * SKIP LOCKED`; lease epochs come from a sequence; events and answers are taken over `SKIP
 * LOCKED` rows, so each is delivered once. The pool survives a server restart.
 */
export function createPostgresRunStore(options: PostgresRunStoreOptions): RunStore {
  return createSqlRunStore(postgresDialect(options));
}

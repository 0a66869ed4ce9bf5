import type { RunStore } from './run-store.ts';
import { createSqlRunStore } from './sql-run-store.ts';
import { type SqliteDialectOptions, sqliteDialect } from './sqlite-dialect.ts';

export type SqliteRunStoreOptions = SqliteDialectOptions;

/**
 * The embedded `RunStore`: the store's one logic (`createSqlRunStore`) over one SQLite file
 * (`sqliteDialect`: WAL mode, `BEGIN IMMEDIATE` transactions, so several handles — in one process or
 * several — never claim the same run twice).
 */
export function createSqliteRunStore(options: SqliteRunStoreOptions): RunStore {
  return createSqlRunStore(sqliteDialect(options));
}

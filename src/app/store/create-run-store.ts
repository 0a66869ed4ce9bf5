import { join } from 'node:path';
import { createPostgresRunStore } from './postgres-run-store.ts';
import type { RunStore } from './run-store.ts';
import { createSqliteRunStore } from './sqlite-run-store.ts';

/** The environment `createRunStore` reads. */
export interface RunStoreEnv {
  /** `postgres://…` or `postgresql://…` selects PostgreSQL (several replicas share one queue). */
  DATABASE_URL?: string;
  /** The PostgreSQL schema of the tables (a lower-case identifier). Default `agent_mux`. */
  AGENT_MUX_DB_SCHEMA?: string;
  /** Where the SQLite file goes when there is no PostgreSQL URL. Default `./data`. */
  AGENT_MUX_DATA_DIR?: string;
}

/** True when `url` names a PostgreSQL database. */
export function isPostgresUrl(url: string | undefined): url is string {
  return url !== undefined && /^postgres(ql)?:\/\//i.test(url);
}

/**
 * The app's store as configured: PostgreSQL when `DATABASE_URL` starts with `postgres://` or
 * `postgresql://` (its tables in the schema `AGENT_MUX_DB_SCHEMA`, default `agent_mux`), else SQLite at
 * `${AGENT_MUX_DATA_DIR ?? './data'}/agent-mux.db` (its log checkpointed by a worker thread).
 * A PostgreSQL statement or transaction that meets a transient failure is tried again, said in `log`.
 * Call `migrate()` before use.
 */
export function createRunStore(env: RunStoreEnv, log: (line: string) => void = () => {}): RunStore {
  if (isPostgresUrl(env.DATABASE_URL)) {
    return createPostgresRunStore({
      connectionString: env.DATABASE_URL,
      schema: env.AGENT_MUX_DB_SCHEMA || undefined,
      onRetry: (error, attempt) =>
        log(
          `database: ${error instanceof Error ? error.message : String(error)}; trying again (attempt ${attempt + 1})`,
        ),
    });
  }
  // Checkpoints in a worker: no webhook's commit waits for the log to be copied and synced.
  return createSqliteRunStore({ file: join(env.AGENT_MUX_DATA_DIR || './data', 'agent-mux.db'), checkpoint: 'worker' });
}

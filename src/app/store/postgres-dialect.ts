import pg from 'pg';
import { postgresSql, SCHEMA_NAME } from './postgres-sql.ts';
import type { Row } from './row-mapping.ts';
import { StoreConfigError } from './store-config-error.ts';
import type { StoreDialect, StoreLock, StoreSession } from './store-dialect.ts';
import { retryTransient } from './transient-error.ts';

export interface PostgresDialectOptions {
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

/**
 * PostgreSQL through a `pg.Pool`: statements and whole transactions tried again after a transient
 * failure (the connection ended, a failover, a serialization failure), advisory locks for the
 * claim, a delivery and a quota. The pool survives a server restart: broken connections are
 * dropped and replaced.
 */
export function postgresDialect(options: PostgresDialectOptions): StoreDialect {
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

  // A statement on the pool, and a whole transaction, are tried again after a transient failure: each
  // is a unit that either committed or left nothing behind. Statements inside a transaction are not:
  // the transaction is retried as a whole.
  const retry = <T>(work: () => Promise<T>) => retryTransient(work, { onRetry: options.onRetry });
  const sessionOf = (client: Pick<pg.PoolClient, 'query'>, wrap: <T>(work: () => Promise<T>) => Promise<T>) =>
    ({
      rows: async (text, values = []) => (await wrap(() => client.query<Row>(text, [...values]))).rows,
      changes: async (text, values = []) => (await wrap(() => client.query<Row>(text, [...values]))).rowCount ?? 0,
    }) satisfies StoreSession;
  const single = sessionOf(pool, retry);
  const locks: Record<StoreLock, string> = { claim: sql.claimLock, delivery: sql.deliveryLock, quota: sql.quotaLock };

  async function transactionOnce<T>(work: (tx: StoreSession) => Promise<T>): Promise<T> {
    const client = await pool.connect();
    let broken: Error | undefined;
    try {
      await client.query('BEGIN');
      const result = await work(sessionOf(client, (run) => run()));
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

  const transaction = <T>(work: (tx: StoreSession) => Promise<T>): Promise<T> => retry(() => transactionOnce(work));
  return {
    sql,
    single,
    transaction,
    async lock(tx, lock, key) {
      await tx.rows(locks[lock], key === undefined ? [] : [key]);
    },
    list: (values) => (values === undefined ? null : [...values]),
    bytes: (value) => Buffer.from(value),
    async migrate() {
      await transaction(async (tx) => {
        await tx.rows(sql.migrateLock);
        await tx.rows(sql.schema);
      });
    },
    async close() {
      if (!pool.ended) await pool.end();
    },
  };
}

/** What a connection's own 'error' listener does: nothing (see `pool.on('connect')`). */
function ignoreClientError(): void {}

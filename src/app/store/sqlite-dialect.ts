import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { DatabaseSync, type SQLInputValue, type StatementSync } from 'node:sqlite';
import type { Row } from './row-mapping.ts';
import { type SqliteCheckpointer, startSqliteCheckpointer } from './sqlite-checkpointer.ts';
import { SQLITE_ADDED_COLUMNS, SQLITE_ADDED_INDEXES, SQLITE_SCHEMA, SQLITE_SQL } from './sqlite-sql.ts';
import type { StoreDialect, StoreSession } from './store-dialect.ts';

export interface SqliteDialectOptions {
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
 * One SQLite file in WAL mode (Node's built-in `node:sqlite`). Every write transaction is
 * `BEGIN IMMEDIATE`, so several handles — in one process or several — serialize on the file's write
 * lock. The statements are synchronous: a transaction's work awaits only its own statements, and
 * everything else on this file in this process (every handle's statements and transactions) waits
 * in line until it has ended — another handle's `BEGIN IMMEDIATE` would otherwise block the thread
 * on the lock this one holds, and this one could never commit.
 */
export function sqliteDialect(options: SqliteDialectOptions): StoreDialect {
  if (options.file !== ':memory:') mkdirSync(dirname(resolve(options.file)), { recursive: true });
  const db = new DatabaseSync(options.file, { timeout: options.busyTimeoutMs ?? 10_000 });
  db.exec('PRAGMA journal_mode = WAL');
  db.exec('PRAGMA synchronous = NORMAL');
  const checkpointer = startCheckpointer(db, options);

  const statements = new Map<string, StatementSync>();
  const prepared = (text: string): StatementSync => {
    let statement = statements.get(text);
    if (!statement) {
      statement = db.prepare(text);
      statements.set(text, statement);
    }
    return statement;
  };
  // node:sqlite binds numbers, strings, null and bytes: what the store passes (`StoreDialect.list`, `bytes`).
  const bind = (values: readonly unknown[]) => values as SQLInputValue[];
  const direct: StoreSession = {
    rows: async (text, values = []) => prepared(text).all(...bind(values)) as Row[],
    changes: async (text, values = []) => Number(prepared(text).run(...bind(values)).changes),
  };

  const queue = queueOf(options.file);
  const inLine = <T>(work: () => Promise<T>): Promise<T> => {
    const result = queue.last.then(work, work);
    queue.last = result.catch(() => undefined);
    return result;
  };
  const inTransaction = async <T>(work: () => Promise<T>): Promise<T> => {
    db.exec('BEGIN IMMEDIATE');
    try {
      const result = await work();
      db.exec('COMMIT');
      return result;
    } catch (error) {
      if (db.isTransaction) db.exec('ROLLBACK');
      throw error;
    }
  };

  return {
    sql: SQLITE_SQL,
    single: {
      rows: (text, values) => inLine(() => direct.rows(text, values)),
      changes: (text, values) => inLine(() => direct.changes(text, values)),
    },
    transaction: (work) => inLine(() => inTransaction(() => work(direct))),
    // BEGIN IMMEDIATE holds the file's one write lock: every transaction is serialized already.
    lock: async () => {},
    list: (values) => (values === undefined ? null : JSON.stringify(values)),
    bytes: (value) => value,
    migrate: () =>
      inLine(() =>
        inTransaction(async () => {
          db.exec(SQLITE_SCHEMA);
          // A database made by an earlier version: add the columns it lacks (SQLite has no ADD COLUMN IF NOT EXISTS).
          for (const [table, column, definition] of SQLITE_ADDED_COLUMNS) {
            const columns = db.prepare(`PRAGMA table_info(${table})`).all();
            if (!columns.some((c) => c.name === column)) {
              db.exec(`ALTER TABLE ${table} ADD COLUMN ${column} ${definition}`);
            }
          }
          db.exec(SQLITE_ADDED_INDEXES);
        }),
      ),
    close: () =>
      inLine(async () => {
        await checkpointer?.stop();
        if (!db.isOpen) return;
        db.close();
        releaseQueue(options.file, queue);
      }),
  };
}

/** The line of one database file's work in this process (each `:memory:` handle has its own). */
interface Queue {
  last: Promise<unknown>;
  /** The open handles on the file: the line is forgotten when the last one closes. */
  handles: number;
}
const queues = new Map<string, Queue>();

function queueOf(file: string): Queue {
  if (file === ':memory:') return { last: Promise.resolve(), handles: 1 };
  const key = resolve(file);
  let queue = queues.get(key);
  if (!queue) {
    queue = { last: Promise.resolve(), handles: 0 };
    queues.set(key, queue);
  }
  queue.handles++;
  return queue;
}

function releaseQueue(file: string, queue: Queue): void {
  queue.handles--;
  if (queue.handles === 0 && file !== ':memory:' && queues.get(resolve(file)) === queue) queues.delete(resolve(file));
}

/** With `checkpoint: 'worker'`, the log's checkpoints move to a worker thread (and back here if it fails). */
function startCheckpointer(db: DatabaseSync, options: SqliteDialectOptions): SqliteCheckpointer | undefined {
  if (options.checkpoint !== 'worker' || options.file === ':memory:') return undefined;
  db.exec('PRAGMA wal_autocheckpoint = 0');
  // A log restarted after a burst is cut back to 8 MiB rather than kept at its largest.
  db.exec('PRAGMA journal_size_limit = 8388608');
  return startSqliteCheckpointer({
    file: options.file,
    busyTimeoutMs: options.busyTimeoutMs,
    // Without its worker the log would only grow: this connection checkpoints again.
    onFailure: () => {
      if (db.isOpen) db.exec('PRAGMA wal_autocheckpoint = 1000');
    },
  });
}

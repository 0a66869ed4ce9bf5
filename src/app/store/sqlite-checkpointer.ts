import { Worker } from 'node:worker_threads';

/** Checkpoints a SQLite database's write-ahead log from a worker thread. */
export interface SqliteCheckpointer {
  /** Stops the worker; resolves once it exited. */
  stop(): Promise<void>;
}

export interface SqliteCheckpointerOptions {
  /** The database file (WAL mode). */
  file: string;
  /** How often the worker checkpoints. Default 250 ms. */
  intervalMs?: number;
  /**
   * Frames in the log past which the worker's checkpoint waits for writers and empties the log
   * (writers that never pause would otherwise keep it growing). Default 8 192 (32 MiB of 4 KiB pages).
   */
  restartFrames?: number;
  busyTimeoutMs?: number;
  /** The worker failed or exited by itself: the store checkpoints on its own connection again. */
  onFailure: (reason: string) => void;
}

/**
 * The worker's code, plain CommonJS evaluated as a string (`eval: true`): no second file to find,
 * whether the store is loaded from the sources (as `probot run ./src/app/index.ts` does) or from
 * a bundle made with ncc, which would not copy a worker file it cannot see imported.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const { DatabaseSync } = require('node:sqlite');
const db = new DatabaseSync(workerData.file, { timeout: workerData.busyTimeoutMs });
const passive = db.prepare('PRAGMA wal_checkpoint(PASSIVE)');
const truncate = db.prepare('PRAGMA wal_checkpoint(TRUNCATE)');
const tick = () => {
  try {
    const { log } = passive.get();
    // Writers that never pause leave no moment to restart the log: past the limit, one checkpoint
    // that waits for them (they wait too, once) and empties it.
    if (Number(log) > workerData.restartFrames) truncate.get();
  } catch {
    // SQLITE_BUSY and the like: the next tick tries again.
  }
};
const timer = setInterval(tick, workerData.intervalMs);
parentPort.on('message', (message) => {
  if (message !== 'stop') return;
  clearInterval(timer);
  tick();
  db.close();
  parentPort.close();
});
`;

/**
 * Takes the write-ahead log's checkpoints off the event loop. SQLite's automatic checkpoint runs in
 * the connection whose commit crosses the threshold (1 000 pages), and with `synchronous = NORMAL`
 * it syncs the database file there: measured in the app under a burst of webhooks, such a commit
 * took 17–20 ms instead of under 1 ms, a stall every ~130 deliveries that every acknowledgement in
 * flight waited for (issue 17). The store turns the automatic checkpoint off on its connection, and
 * this worker checkpoints on a connection of its own every `intervalMs` (PASSIVE: it copies what it
 * can and never blocks a writer; the log restarts at the next write after a checkpoint that copied
 * all of it, which a pause in the writes allows).
 */
export function startSqliteCheckpointer(options: SqliteCheckpointerOptions): SqliteCheckpointer {
  const worker = new Worker(WORKER_SOURCE, {
    eval: true,
    workerData: {
      file: options.file,
      intervalMs: options.intervalMs ?? 250,
      restartFrames: options.restartFrames ?? 8192,
      busyTimeoutMs: options.busyTimeoutMs ?? 10_000,
    },
  });
  // The app's lifetime is not the checkpointer's to decide.
  worker.unref();
  let stopping = false;
  let failed = false;
  const fail = (reason: string) => {
    if (stopping || failed) return;
    failed = true;
    options.onFailure(reason);
  };
  worker.on('error', (error) => fail(error.message));
  const exited = new Promise<void>((resolve) =>
    worker.once('exit', (code) => {
      fail(`the checkpoint worker exited (${code})`);
      resolve();
    }),
  );
  return {
    async stop() {
      if (stopping) return exited;
      stopping = true;
      worker.postMessage('stop');
      // A worker that does not finish its last checkpoint in time is ended.
      const timer = setTimeout(() => void worker.terminate(), 5000);
      await exited;
      clearTimeout(timer);
    },
  };
}

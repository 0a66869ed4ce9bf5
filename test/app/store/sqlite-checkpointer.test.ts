import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, describe, expect, it } from 'vitest';
import { startSqliteCheckpointer } from '../../../src/app/store/sqlite-checkpointer.ts';
import { createSqliteRunStore } from '../../../src/app/store/sqlite-run-store.ts';

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
const size = (file: string) => statSync(file).size;

/** A WAL database that never checkpoints by itself, with about 2 MB of rows in its log. */
function logOnly(file: string) {
  const db = new DatabaseSync(file);
  db.exec('PRAGMA journal_mode = WAL');
  db.exec('PRAGMA wal_autocheckpoint = 0');
  db.exec('CREATE TABLE t (v TEXT)');
  const insert = db.prepare('INSERT INTO t VALUES (?)');
  for (let i = 0; i < 500; i++) insert.run('x'.repeat(4000));
  return { db, insert };
}

/** Waits until a checkpoint's copy is done: the database file stops growing. */
async function copied(file: string, pollMs: number): Promise<void> {
  for (let last = -1; size(file) !== last; await sleep(pollMs)) last = size(file);
}

async function until(check: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await sleep(20);
  }
}

describe('startSqliteCheckpointer', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });
  const tempFile = () => {
    const dir = mkdtempSync(join(tmpdir(), 'agent-mux-checkpoint-'));
    dirs.push(dir);
    return join(dir, 'db.sqlite');
  };

  it('copies the log into the database from its own thread while this connection never checkpoints', async () => {
    const file = tempFile();
    const { db, insert } = logOnly(file);
    // Everything is still in the log: nothing checkpointed it.
    expect(size(file)).toBeLessThan(100_000);
    expect(size(`${file}-wal`)).toBeGreaterThan(2_000_000);
    let failure: string | undefined;
    const checkpointer = startSqliteCheckpointer({ file, intervalMs: 20, onFailure: (r) => (failure = r) });
    await until(() => size(file) > 2_000_000);
    await copied(file, 200);
    // Writes go on beside it, and a log fully copied is restarted by the next write, so it stops growing.
    const walBefore = size(`${file}-wal`);
    for (let i = 0; i < 100; i++) insert.run('y'.repeat(4000));
    expect(size(`${file}-wal`)).toBeLessThanOrEqual(walBefore);
    await checkpointer.stop();
    expect(failure).toBeUndefined();
    expect(Number(db.prepare('SELECT count(*) AS n FROM t').get()?.n)).toBe(600);
    db.close();
  });

  it('empties a log that grew past its limit while writers never paused', async () => {
    const file = tempFile();
    const { db } = logOnly(file);
    const checkpointer = startSqliteCheckpointer({ file, intervalMs: 20, restartFrames: 100, onFailure: () => {} });
    await until(() => size(`${file}-wal`) === 0);
    await checkpointer.stop();
    db.close();
  });

  it('reports a worker that cannot open the database, so the store can checkpoint itself again', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'agent-mux-checkpoint-'));
    dirs.push(dir);
    const failed = new Promise<string>((resolve) => {
      startSqliteCheckpointer({ file: join(dir, 'missing', 'db.sqlite'), intervalMs: 20, onFailure: resolve });
    });
    expect(await failed).toMatch(/unable to open|exited/);
  });

  it("keeps the app's store's log bounded over many webhooks, and stops with the store", async () => {
    const file = tempFile();
    const store = createSqliteRunStore({ file, checkpoint: 'worker' });
    await store.migrate();
    const payload = { body: 'z'.repeat(4000) };
    for (let i = 0; i < 1500; i++) {
      await store.recordEvent({
        deliveryId: `d${i}`,
        name: 'issue_comment',
        payload,
        installationId: 1,
        receivedAt: i,
      });
      if (i % 100 === 0) await sleep(5);
    }
    // About 6 MB were written; the worker copies them into the database, and once it copied all of
    // them the next write restarts the log and cuts it back to 8 MiB.
    await until(() => size(file) > 5_000_000);
    await copied(file, 300);
    await store.recordEvent({
      deliveryId: 'after',
      name: 'issue_comment',
      payload,
      installationId: 1,
      receivedAt: 2000,
    });
    expect(size(`${file}-wal`)).toBeLessThanOrEqual(8 * 2 ** 20);
    await store.close();
  });
});

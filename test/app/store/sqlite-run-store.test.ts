import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { afterEach, describe, expect, it } from 'vitest';
import type { RunStore } from '../../../src/app/store/run-store.ts';
import { createSqliteRunStore } from '../../../src/app/store/sqlite-run-store.ts';
import { describeRunStore } from './run-store-contract.ts';
import { makeJob, type StoreBackend } from './run-store-fixtures.ts';

function sqliteBackend(): StoreBackend & { file: string } {
  const dir = mkdtempSync(join(tmpdir(), 'agent-mux-store-'));
  const file = join(dir, 'nested', 'agent-mux.db');
  const opened: RunStore[] = [];
  return {
    file,
    open() {
      const store = createSqliteRunStore({ file });
      opened.push(store);
      return store;
    },
    async dispose() {
      for (const store of opened) await store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

describeRunStore('sqlite', async () => sqliteBackend());

describe('createSqliteRunStore', () => {
  let backend: (StoreBackend & { file: string }) | undefined;
  afterEach(async () => {
    await backend?.dispose();
    backend = undefined;
  });

  it('creates the parent directory and uses WAL mode', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'agent-mux-store-'));
    const file = join(dir, 'a', 'b', 'agent-mux.db');
    const store = createSqliteRunStore({ file });
    await store.migrate();
    await store.enqueue({ job: makeJob({ number: 1 }), installationId: 1, adapter: 'demo', perIssue: 'queue' });
    expect(existsSync(file)).toBe(true);
    expect(existsSync(`${file}-wal`)).toBe(true);
    await store.close();
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('migrates a database made before subject keys: old deliveries stay, duplicates are recorded', async () => {
    backend = sqliteBackend();
    mkdirSync(dirname(backend.file), { recursive: true });
    const old = new DatabaseSync(backend.file);
    old.exec('CREATE TABLE deliveries (delivery_id TEXT PRIMARY KEY, received_at INTEGER NOT NULL)');
    old.exec("INSERT INTO deliveries VALUES ('old', 1)");
    old.close();
    const store = backend.open();
    await store.migrate();
    await store.migrate();
    const event = (deliveryId: string) => ({
      deliveryId,
      name: 'issue_comment',
      payload: {},
      installationId: 1,
      receivedAt: 2,
    });
    expect(await store.recordEvent(event('old'), 'issue_comment:1:created')).toBe('redelivery');
    expect(await store.recordEvent(event('new'), 'issue_comment:1:created')).toBe('recorded');
    expect(await store.recordEvent(event('replay'), 'issue_comment:1:created')).toBe('duplicate');
    const db = new DatabaseSync(backend.file);
    const rows = db.prepare('SELECT delivery_id, duplicate_of FROM deliveries ORDER BY delivery_id').all();
    db.close();
    expect(rows.map((r) => ({ ...r }))).toEqual([
      { delivery_id: 'new', duplicate_of: null },
      { delivery_id: 'old', duplicate_of: null },
      { delivery_id: 'replay', duplicate_of: 'new' },
    ]);
  });

  it('works in memory (tests only)', async () => {
    const store = createSqliteRunStore({ file: ':memory:' });
    await store.migrate();
    const { run } = await store.enqueue({
      job: makeJob({ number: 1 }),
      installationId: 1,
      adapter: 'demo',
      perIssue: 'queue',
    });
    expect((await store.claim('w', 1000, { perRepo: 1, perAdapter: {}, defaultPerAdapter: 1 }))?.run.id).toBe(run.id);
    await store.close();
  });

  it('hands each of 200 runs to exactly one of two processes claiming on the same file', async () => {
    const db = sqliteBackend();
    backend = db;
    const store = db.open();
    await store.migrate();
    const ids: string[] = [];
    for (let i = 0; i < 200; i++) {
      const job = makeJob({ repo: `octo/r${i % 5}`, number: i });
      ids.push((await store.enqueue({ job, installationId: 1, adapter: 'demo', perIssue: 'queue' })).run.id);
    }
    const script = fileURLToPath(new URL('./fixtures/sqlite-claimer.ts', import.meta.url));
    const children = [0, 1].map((i) =>
      execa(process.execPath, ['--disable-warning=ExperimentalWarning', script, db.file, `child-${i}`], {
        stdin: 'pipe',
        buffer: true,
      }),
    );
    // Both are open and waiting before either starts, so they contend for the same queue.
    await Promise.all(
      children.map(
        (child) =>
          new Promise<void>((resolve) => {
            child.stdout?.once('data', () => resolve());
          }),
      ),
    );
    for (const child of children) child.stdin?.end('go\n');
    const results = await Promise.all(children);
    const claimed = results.flatMap((result) =>
      String(result.stdout)
        .split('\n')
        .filter((line) => line && line !== 'ready'),
    );
    expect(claimed.sort()).toEqual([...ids].sort());
    expect(results.map((result) => result.exitCode)).toEqual([0, 0]);
  });
});

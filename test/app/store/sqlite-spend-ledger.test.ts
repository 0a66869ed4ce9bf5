import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { describe, expect, it } from 'vitest';
import type { RunStore } from '../../../src/app/store/run-store.ts';
import { createSqliteRunStore } from '../../../src/app/store/sqlite-run-store.ts';
import type { SpendLedger } from '../../../src/github/limits/spend-ledger.ts';
import { describeSpendLedger, type SpendLedgerFixture } from '../../github/limits/spend-ledger-contract.ts';

/** The store's two methods as the port: they are own properties, bound to the store. */
const ledgerOf = (store: RunStore): SpendLedger => ({ spentOn: store.spentOn, add: store.addSpend });

/** A fresh database file; `open()` is another handle on it. */
function sqliteFile() {
  const dir = mkdtempSync(join(tmpdir(), 'agent-mux-spend-'));
  const file = join(dir, 'agent-mux.db');
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

describeSpendLedger('sqlite store', async (): Promise<SpendLedgerFixture> => {
  const db = sqliteFile();
  const store = db.open();
  await store.migrate();
  return { ledger: ledgerOf(store), dispose: db.dispose };
});

describe('spend in the SQLite store', () => {
  it('migrates a database made before spend was kept', async () => {
    const db = sqliteFile();
    try {
      const old = new DatabaseSync(db.file);
      old.exec('CREATE TABLE deliveries (delivery_id TEXT PRIMARY KEY, received_at INTEGER NOT NULL)');
      old.close();
      const store = db.open();
      await store.migrate();
      await store.migrate();
      expect(await store.addSpend('repo:octo/hello', '2026-03-14', { usd: 0.5, tokens: 10 })).toEqual({
        usd: 0.5,
        tokens: 10,
      });
    } finally {
      await db.dispose();
    }
  });

  it('counts every add of two handles on one file adding at once', async () => {
    const db = sqliteFile();
    try {
      const [a, b] = [db.open(), db.open()];
      await a.migrate();
      const adds = [a, b].flatMap((store) =>
        Array.from({ length: 20 }, () => store.addSpend('installation:7', '2026-03-14', { usd: 0.05, tokens: 3 })),
      );
      await Promise.all(adds);
      const total = await b.spentOn('installation:7', '2026-03-14');
      expect(Math.abs(total.usd - 2)).toBeLessThan(1e-9);
      expect(total.tokens).toBe(120);
    } finally {
      await db.dispose();
    }
  });
});

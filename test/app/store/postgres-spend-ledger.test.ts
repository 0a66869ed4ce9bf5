import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { createPostgresRunStore } from '../../../src/app/store/postgres-run-store.ts';
import type { RunStore } from '../../../src/app/store/run-store.ts';
import type { SpendLedger } from '../../../src/github/limits/spend-ledger.ts';
import { DATABASE_URL, postgresReachable } from '../../app-faults/fault-postgres.ts';
import { describeSpendLedger, type SpendLedgerFixture } from '../../github/limits/spend-ledger-contract.ts';
import { startAckDroppingProxy } from '../../support/ack-dropping-proxy.ts';

const url = DATABASE_URL;
const available = await postgresReachable();
const admin = new pg.Pool({ connectionString: url, max: 2 });
admin.on('error', () => {});
afterAll(async () => {
  await admin.end();
});

/** The store's two methods as the port: they are own properties, bound to the store. */
const ledgerOf = (store: RunStore): SpendLedger => ({ spentOn: store.spentOn, add: store.addSpend });

/** A fresh schema, dropped by `dispose`; each `open()` is a pool of its own (a replica). */
function postgresSchema() {
  const schema = `agent_mux_spend_${randomBytes(6).toString('hex')}`;
  const opened: RunStore[] = [];
  return {
    schema,
    open(connectionString = url, onRetry?: (error: unknown) => void) {
      const store = createPostgresRunStore({ connectionString, schema, maxConnections: 4, onRetry });
      opened.push(store);
      return store;
    },
    async dispose() {
      for (const store of opened) await store.close();
      await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    },
  };
}

describe.runIf(available)('spend in the PostgreSQL store', () => {
  describeSpendLedger('postgres store', async (): Promise<SpendLedgerFixture> => {
    const db = postgresSchema();
    const store = db.open();
    await store.migrate();
    return { ledger: ledgerOf(store), dispose: db.dispose };
  });

  it('counts every add of two replicas adding 20 at once each', async () => {
    const db = postgresSchema();
    try {
      const replicas = [db.open(), db.open()];
      await Promise.all(replicas.map((store) => store.migrate()));
      const adds = replicas.flatMap((store) =>
        Array.from({ length: 20 }, () => store.addSpend('installation:7', '2026-03-14', { usd: 0.05, tokens: 1234 })),
      );
      const totals = await Promise.all(adds);
      const total = await replicas[0]?.spentOn('installation:7', '2026-03-14');
      expect(Math.abs((total?.usd ?? 0) - 2)).toBeLessThan(1e-9);
      expect(total?.tokens).toBe(40 * 1234);
      // Each add saw a total of its own: the adds were applied one after another.
      expect(new Set(totals.map((t) => t.tokens)).size).toBe(40);
    } finally {
      await db.dispose();
    }
  });

  it('counts an add once when its COMMIT was applied but not acknowledged', async () => {
    const db = postgresSchema();
    const proxy = await startAckDroppingProxy(url);
    try {
      const direct = db.open();
      await direct.migrate();
      await direct.addSpend('repo:octo/hello', '2026-03-14', { usd: 1, tokens: 100 });
      const retries: unknown[] = [];
      const store = db.open(proxy.url, (error) => retries.push(error));
      const dropped = proxy.dropNext('COMMIT');
      const total = await store.addSpend('repo:octo/hello', '2026-03-14', { usd: 0.25, tokens: 5 });
      await dropped;
      expect(retries).toHaveLength(1);
      expect(total).toEqual({ usd: 1.25, tokens: 105 });
      expect(await direct.spentOn('repo:octo/hello', '2026-03-14')).toEqual({ usd: 1.25, tokens: 105 });
    } finally {
      await proxy.close();
      await db.dispose();
    }
  });

  it('migrates a schema made before spend was kept', async () => {
    const db = postgresSchema();
    try {
      await admin.query(`CREATE SCHEMA ${db.schema}`);
      await admin.query(
        `CREATE TABLE ${db.schema}.deliveries (delivery_id text PRIMARY KEY, received_at bigint NOT NULL)`,
      );
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
});

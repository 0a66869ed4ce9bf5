import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { createPostgresRunStore } from '../../../src/app/store/postgres-run-store.ts';
import type { RunStore } from '../../../src/app/store/run-store.ts';
import { StoreConfigError } from '../../../src/app/store/store-config-error.ts';
import { describeRunStore } from './run-store-contract.ts';
import type { StoreBackend } from './run-store-fixtures.ts';

const url = process.env.AGENT_MUX_TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

async function reachable(): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3_000 });
  try {
    await client.connect();
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => {});
  }
}

const available = await reachable();
const admin = new pg.Pool({ connectionString: url, max: 2 });
admin.on('error', () => {});
afterAll(async () => {
  await admin.end();
});

/** A fresh schema per test, dropped afterwards; each `open()` is a pool of its own. */
function postgresBackend(): StoreBackend & { schema: string } {
  const schema = `agent_mux_test_${randomBytes(6).toString('hex')}`;
  const opened: RunStore[] = [];
  return {
    schema,
    open() {
      const store = createPostgresRunStore({ connectionString: url, schema, maxConnections: 4 });
      opened.push(store);
      return store;
    },
    async dispose() {
      for (const store of opened) await store.close();
      await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    },
  };
}

describe.runIf(available)('postgres', () => {
  describeRunStore('postgres', async () => postgresBackend());

  it('migrates a database made before subject keys: old deliveries stay, duplicates are recorded', async () => {
    const backend = postgresBackend();
    try {
      await admin.query(`CREATE SCHEMA ${backend.schema}`);
      await admin.query(
        `CREATE TABLE ${backend.schema}.deliveries (delivery_id text PRIMARY KEY, received_at bigint NOT NULL)`,
      );
      await admin.query(`INSERT INTO ${backend.schema}.deliveries VALUES ('old', 1)`);
      const store = backend.open();
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
      const { rows } = await admin.query(
        `SELECT delivery_id, duplicate_of FROM ${backend.schema}.deliveries ORDER BY delivery_id`,
      );
      expect(rows).toEqual([
        { delivery_id: 'new', duplicate_of: null },
        { delivery_id: 'old', duplicate_of: null },
        { delivery_id: 'replay', duplicate_of: 'new' },
      ]);
    } finally {
      await backend.dispose();
    }
  });

  it.each(['agent-mux', 'Agent', 'x; DROP TABLE runs', ''])('refuses the schema name %j', (schema) => {
    expect(() => createPostgresRunStore({ connectionString: url, schema })).toThrow(StoreConfigError);
  });

  it('creates the schema and its tables on migrate, and migrates concurrently from several replicas', async () => {
    const backend = postgresBackend();
    try {
      await Promise.all([backend.open(), backend.open(), backend.open()].map((store) => store.migrate()));
      const { rows } = await admin.query<{ table_name: string }>(
        'SELECT table_name FROM information_schema.tables WHERE table_schema = $1 ORDER BY table_name',
        [backend.schema],
      );
      expect(rows.map((row) => row.table_name)).toEqual([
        'answers',
        'conversations',
        'deliveries',
        'events',
        'pending_approvals',
        'runs',
        'spend',
        'spend_adds',
        'subjects',
        'superseded_approvals',
      ]);
    } finally {
      await backend.dispose();
    }
  });

  // The server restart test lives in test/app-faults/serial/postgres-restart.test.ts: it runs in the
  // serial pass (test/app-faults/vitest.serial.config.ts), as a restart breaks the files running beside it.
});

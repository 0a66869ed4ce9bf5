import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync } from 'node:fs';
import { execa } from 'execa';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { createPostgresRunStore } from '../../../src/app/store/postgres-run-store.ts';
import type { RunStore } from '../../../src/app/store/run-store.ts';
import { StoreConfigError } from '../../../src/app/store/store-config-error.ts';
import { describeRunStore } from './run-store-contract.ts';
import { makeJob, NO_LIMITS, type StoreBackend } from './run-store-fixtures.ts';

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
        'deliveries',
        'events',
        'pending_approvals',
        'runs',
      ]);
    } finally {
      await backend.dispose();
    }
  });

  // Restarts the shared server: only where the test runs as root next to a Debian cluster.
  const canRestart = existsSync('/usr/bin/pg_ctlcluster') && process.getuid?.() === 0 && existsSync('/etc/postgresql');
  describe.runIf(canRestart)('a server restart', () => {
    it('is survived by the pool: the store works once the server is back', async () => {
      const backend = postgresBackend();
      const errors: Error[] = [];
      const store = createPostgresRunStore({
        connectionString: url,
        schema: backend.schema,
        onIdleError: (e) => errors.push(e),
      });
      try {
        await store.migrate();
        const { run } = await store.enqueue({
          job: makeJob({ number: 1 }),
          installationId: 1,
          adapter: 'demo',
          perIssue: 'queue',
        });
        const [version] = readdirSync('/etc/postgresql');
        await execa('pg_ctlcluster', ['--skip-systemctl-redirect', String(version), 'main', 'restart']);

        const claimed = await store.claim('w1', 60_000, NO_LIMITS);
        expect(claimed?.run.id).toBe(run.id);
        if (claimed) await store.finish(claimed.lease, { state: 'succeeded', conclusion: 'success' });
        expect((await store.get(run.id))?.state).toBe('succeeded');
        expect(
          await store.recordEvent({ deliveryId: 'd1', name: 'ping', payload: {}, installationId: 1, receivedAt: 1 }),
        ).toBe(true);
      } finally {
        await store.close();
        await backend.dispose();
      }
    }, 60_000);
  });
});

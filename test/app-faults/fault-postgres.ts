/** The PostgreSQL the fault tests use: one fresh schema per test, dropped afterwards. */
import { randomBytes } from 'node:crypto';
import pg from 'pg';

export const DATABASE_URL = process.env.AGENT_MUX_TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

/** True when the server answers. */
export async function postgresReachable(): Promise<boolean> {
  const client = new pg.Client({ connectionString: DATABASE_URL, connectionTimeoutMillis: 3_000 });
  client.on('error', () => {});
  try {
    await client.connect();
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => {});
  }
}

/**
 * Ends every connection whose `application_name` is `applicationName` (give the app or store under
 * test its own through `?application_name=` in its URL: other tests share the server), as a failover
 * ends them; returns how many were ended.
 */
export async function endConnections(admin: pg.Pool, applicationName: string): Promise<number> {
  const { rows } = await admin.query<{ ended: boolean }>(
    'SELECT pg_terminate_backend(pid) AS ended FROM pg_stat_activity WHERE application_name = $1',
    [applicationName],
  );
  return rows.filter((r) => r.ended).length;
}

/** A schema name no other test uses. */
export function freshSchema(prefix = 'agent_mux_faults'): string {
  return `${prefix}_${randomBytes(6).toString('hex')}`;
}

/** Drops `schema` and everything in it. */
export async function dropSchema(schema: string): Promise<void> {
  const client = new pg.Client({ connectionString: DATABASE_URL });
  client.on('error', () => {});
  await client.connect();
  try {
    await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
  } finally {
    await client.end();
  }
}

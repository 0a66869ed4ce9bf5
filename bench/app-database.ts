import { randomBytes } from 'node:crypto';
import pg from 'pg';

/** The server the benchmark may use; each measurement gets a database of its own on it. */
export const BENCH_POSTGRES_URL = 'postgres://postgres@127.0.0.1:5432/test';

/** A fresh, empty database for one measurement (the app creates its `agent_mux` schema in it). */
export interface BenchDatabase {
  /** `DATABASE_URL` for the app. */
  readonly url: string;
  /** Runs in a final state so far, and how many of them succeeded (0 before the app migrated). */
  finished(): Promise<{ finished: number; succeeded: number }>;
  /** When the PostgreSQL server last started (a restart by someone else shows as a change). */
  serverStartedAt(): Promise<string>;
  /** Closes the connection and drops the database. */
  drop(): Promise<void>;
}

/**
 * Creates `agent_mux_bench_<random>` on the benchmark's server. A database rather than a schema:
 * the app, configured by `DATABASE_URL` alone, always uses the schema `agent_mux`, and other
 * people's tests may use that schema in the shared `test` database at the same time.
 */
export async function createBenchDatabase(adminUrl = BENCH_POSTGRES_URL): Promise<BenchDatabase> {
  const name = `agent_mux_bench_${randomBytes(5).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  // A pool of one: a connection someone else's test terminates is replaced on the next query.
  const client = new pg.Pool({ connectionString: url.href, max: 1 });
  client.on('error', () => {});
  return {
    url: url.href,
    async finished() {
      try {
        const { rows } = await client.query<{ finished: string; succeeded: string }>(
          `SELECT count(*) AS finished, count(*) FILTER (WHERE state = 'succeeded') AS succeeded
             FROM agent_mux.runs WHERE state IN ('succeeded', 'failed', 'cancelled', 'timed_out')`,
        );
        return { finished: Number(rows[0]?.finished ?? 0), succeeded: Number(rows[0]?.succeeded ?? 0) };
      } catch {
        return { finished: 0, succeeded: 0 };
      }
    },
    async serverStartedAt() {
      const { rows } = await client.query<{ started: Date }>('SELECT pg_postmaster_start_time() AS started');
      return rows[0]?.started.toISOString() ?? '';
    },
    async drop() {
      await client.end().catch(() => undefined);
      const dropper = new pg.Client({ connectionString: adminUrl });
      await dropper.connect();
      try {
        await dropper.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await dropper.end();
      }
    },
  };
}

/**
 * The PostgreSQL server restarts under the app: the store's pool, and then the real `probot run`
 * with a run waiting on an approval, carry on once it is back. The server is the test's own
 * (`startPrivatePostgres`): the machine's is never restarted (issue 33.13).
 */
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createPostgresRunStore } from '../../src/app/store/postgres-run-store.ts';
import type { RunStore } from '../../src/app/store/run-store.ts';
import { makeJob, NO_LIMITS } from '../app/store/run-store-fixtures.ts';
import { type PrivatePostgres, startPrivatePostgres } from '../support/private-postgres.ts';
import { freshSchema, DATABASE_URL as MACHINE_URL } from './fault-postgres.ts';
import {
  APPROVAL_AGENT,
  awaitingApproval,
  checkName,
  createFaultWorld,
  type FaultWorld,
  processAgent,
  waitFor,
} from './fault-world.ts';

const CONFIG = `
agents:
${processAgent('approver', APPROVAL_AGENT)}approvals:
  users: []
  permission: maintain
  timeout: 120s
git:
  pullRequests: false
`;

let server: PrivatePostgres | undefined;
let DATABASE_URL = '';
/** When the machine's own server started, before this file's tests: it must be the same after. */
let machineStarted: string | undefined;
async function machineStartTime(): Promise<string | undefined> {
  const client = new pg.Client({ connectionString: MACHINE_URL, connectionTimeoutMillis: 3_000 });
  client.on('error', () => {});
  try {
    await client.connect();
    const { rows } = await client.query<{ at: string }>('SELECT pg_postmaster_start_time()::text AS at');
    return rows[0]?.at;
  } catch {
    return undefined;
  } finally {
    await client.end().catch(() => {});
  }
}
beforeAll(async () => {
  machineStarted = await machineStartTime();
  server = await startPrivatePostgres();
  if (!server) throw new Error('PostgreSQL is not installed (/usr/lib/postgresql/N/bin): apt-get install postgresql');
  DATABASE_URL = server.url;
}, 60_000);
afterAll(() => server?.stop());
const restartPostgres = () => server?.restart() ?? Promise.resolve();

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()?.();
});

describe('a PostgreSQL restart', { timeout: 90_000 }, () => {
  // On the test's own server: restarting it breaks no other test.
  it('is survived by the store pool: the store works once the server is back', async () => {
    const schema = freshSchema('agent_mux_test');
    const errors: Error[] = [];
    const store = createPostgresRunStore({
      connectionString: DATABASE_URL,
      schema,
      onIdleError: (e) => errors.push(e),
    });
    cleanups.push(() => store.close());
    await store.migrate();
    const { run } = await store.enqueue({
      job: makeJob({ number: 1 }),
      installationId: 1,
      adapter: 'demo',
      perIssue: 'queue',
    });
    await restartPostgres();

    const claimed = await store.claim('w1', 60_000, NO_LIMITS);
    expect(claimed?.run.id).toBe(run.id);
    if (claimed) await store.finish(claimed.lease, { state: 'succeeded', conclusion: 'success' });
    expect((await store.get(run.id))?.state).toBe('succeeded');
    expect(
      await store.recordEvent({ deliveryId: 'd1', name: 'ping', payload: {}, installationId: 1, receivedAt: 1 }),
    ).toBe('recorded');
  });

  it('is survived by the app: a run waiting on approval completes once approved after the restart', async () => {
    const world: FaultWorld = await createFaultWorld(CONFIG);
    cleanups.push(() => world.close());
    const schema = freshSchema();
    const { w } = world;
    const explain = () => world.output();
    const app = await world.startApp({
      DATABASE_URL,
      AGENT_MUX_DB_SCHEMA: schema,
      AGENT_MUX_WORKERS: '1',
      // Renewed every 5 s: renewals fail while the server is down, and succeed again after.
      AGENT_MUX_LEASE_SECONDS: '15',
      AGENT_MUX_GITHUB_THROTTLE: 'off',
    });
    const store: RunStore = createPostgresRunStore({ connectionString: DATABASE_URL, schema, maxConnections: 2 });
    cleanups.push(() => store.close());

    expect((await world.send(app, 'issue_comment', world.mention(9, '@agent approver: write FAULTS.md'))).status).toBe(
      200,
    );
    const pending = await waitFor('the run waiting on approval', () => awaitingApproval(world), explain);
    const [waiting] = await waitFor(
      'the pending approval in the store',
      async () => {
        const runs = await store.list({ states: ['awaiting_approval'] });
        return runs.length === 1 && (await store.pendingApprovals({ runId: runs[0]!.id })).length === 1
          ? runs
          : undefined;
      },
      explain,
    );

    await restartPostgres();
    // Outlive a renewal period, so that the worker's pool meets its broken connections.
    await new Promise((resolve) => setTimeout(resolve, 6_000));

    const press = await world.send(app, 'check_run', world.buttonPress(pending, pending.approve, 'bob'));
    expect(press.status).toBe(200);
    const done = await waitFor(
      'the run to complete',
      () => {
        const check = w.gh.state.checkRun(pending.id);
        return check?.status === 'completed' ? check : undefined;
      },
      explain,
    );
    expect(done.conclusion).toBe('success');
    const finished = await waitFor(
      'the run finished in the store',
      async () => {
        const run = await store.get(waiting!.id);
        return run?.state === 'succeeded' ? run : undefined;
      },
      explain,
    );

    // Consistent: one attempt, lease released, nothing pending, nothing left to read.
    expect(finished).toMatchObject({ attempts: 0, conclusion: 'success', checkRunId: pending.id });
    expect(finished.leaseToken).toBeUndefined();
    expect(finished.leaseEpoch).toBe(waiting!.leaseEpoch);
    expect(await store.list()).toHaveLength(1);
    expect(await store.pendingApprovals({ runId: finished.id })).toEqual([]);
    expect(await store.takeAnswers(finished.issueKey)).toEqual([]);
    expect(await store.takeEvent()).toBeUndefined();
    expect(await store.expiredRuns(Date.now() + 3_600_000)).toEqual([]);
    expect(w.gh.state.checkRuns(w.repo).map((c) => [c.name, c.conclusion])).toEqual([
      [checkName('approver'), 'success'],
    ]);
    const starts = (await world.agentEvents()).filter((e) => e.what === 'start');
    expect(starts).toHaveLength(1);
    w.gh.assertNoViolations();
  }, 90_000);

  it('left the machine’s own PostgreSQL alone (not restarted)', async () => {
    expect(machineStarted, 'the machine’s PostgreSQL on 127.0.0.1:5432').toBeDefined();
    expect(await machineStartTime()).toBe(machineStarted);
  });
});

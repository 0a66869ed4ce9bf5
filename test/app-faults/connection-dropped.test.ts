/**
 * PostgreSQL ends the app's connection while it queues a mention's run (as a restart, a failover or
 * `pg_terminate_backend` ends it): the real `probot run` on a real PostgreSQL, its connection
 * terminated by the test at the enqueue statement. The test holds the delivery's lock (the one
 * `enqueue` takes first), waits until the app's backend is blocked on it, terminates that backend,
 * then lets go. Once: the store tries the transaction again. Again and again for a while (a storm):
 * the store's retries run out, the dispatch puts the event back, and a later dispatch queues it.
 * Either way the mention runs exactly once, with one check run, and the log says what happened.
 * Nothing here restarts the machine's PostgreSQL: only the app's own backends are ended.
 */
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { createPostgresRunStore } from '../../src/app/store/postgres-run-store.ts';
import type { RunStore } from '../../src/app/store/run-store.ts';
import { DATABASE_URL, dropSchema, freshSchema, postgresReachable } from './fault-postgres.ts';
import { checkName, createFaultWorld, type FaultWorld, processAgent, QUICK_AGENT, waitFor } from './fault-world.ts';

const CONFIG = `
agents:
${processAgent('quick', QUICK_AGENT)}git:
  pullRequests: false
`;

const available = await postgresReachable();

let world: FaultWorld | undefined;
let schema: string | undefined;
let store: RunStore | undefined;
let admin: pg.Client | undefined;
afterEach(async () => {
  await world?.close();
  await store?.close();
  await admin?.end().catch(() => {});
  if (schema !== undefined) await dropSchema(schema);
  world = undefined;
  store = undefined;
  admin = undefined;
  schema = undefined;
});

/** Holds the delivery lock of `deliveryId` and ends every app backend that waits on it, `times` times. */
async function dropAtEnqueue(client: pg.Client, schemaName: string, deliveryId: string, times: number) {
  const ended: number[] = [];
  await client.query('BEGIN');
  await client.query(`SELECT pg_advisory_xact_lock(hashtext('agent-mux:delivery:${schemaName}:' || $1))`, [deliveryId]);
  const deadline = Date.now() + 60_000;
  while (ended.length < times && Date.now() < deadline) {
    // Inside a transaction the activity view is one snapshot: read it afresh each time.
    await client.query('SELECT pg_stat_clear_snapshot()');
    const { rows } = await client.query<{ pid: number }>(
      `SELECT pid FROM pg_stat_activity
        WHERE wait_event_type = 'Lock' AND query LIKE $1 AND pid <> pg_backend_pid()`,
      // Only this test's app waiting on this delivery's lock: other files' apps take locks of their own.
      [`%agent-mux:delivery:${schemaName}:%`],
    );
    for (const { pid } of rows.slice(0, times - ended.length)) {
      await client.query('SELECT pg_terminate_backend($1)', [pid]);
      ended.push(pid);
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  await client.query('COMMIT');
  return ended;
}

/** Waits until `app` says it is ready (its store migrated). */
async function untilReady(app: { url: string; output(): string }): Promise<void> {
  await waitFor(
    'the app to be ready',
    async () => ((await fetch(`${app.url}/agent-mux/ready`)).status === 200 ? true : undefined),
    () => app.output().slice(-5_000),
    60_000,
  );
}

describe.runIf(available)('PostgreSQL ends the app’s connection while it queues a mention', () => {
  it.each([
    { what: 'once: the store tries the transaction again', times: 1, logged: /trying again \(attempt 2\)/ },
    {
      what: 'six times in a row: the dispatch puts the event back and queues it later',
      times: 6,
      logged: /failed \(attempt 1\): .*dispatched again in 1 s/,
    },
  ])(
    '$what; the mention runs exactly once',
    async ({ times, logged }) => {
      world = await createFaultWorld(CONFIG);
      schema = freshSchema();
      const f = world;
      const s = createPostgresRunStore({ connectionString: DATABASE_URL, schema, maxConnections: 2 });
      store = s;
      admin = new pg.Client({ connectionString: DATABASE_URL });
      admin.on('error', () => {});
      await admin.connect();
      const app = await f.startApp({
        DATABASE_URL,
        AGENT_MUX_DB_SCHEMA: schema,
        AGENT_MUX_WORKERS: '1',
        AGENT_MUX_GITHUB_THROTTLE: 'off',
      });
      const deliveryId = `connection-ended-${times}`;
      const dropping = dropAtEnqueue(admin, schema, deliveryId, times);
      expect((await f.send(app, 'issue_comment', f.mention(5, '@agent quick: do nothing'), deliveryId)).status).toBe(
        200,
      );
      expect(await dropping, f.output().slice(-5_000)).toHaveLength(times);

      let lastRuns = '';
      const explain = () => `${f.output().slice(-20_000)}\n--- runs ---\n${lastRuns}`;
      await waitFor(
        'the mention’s run to succeed',
        async () => {
          const runs = await s.list();
          lastRuns = JSON.stringify(runs.map(({ job: _job, ...run }) => run));
          return runs.some((run) => run.state === 'succeeded') ? runs : undefined;
        },
        explain,
        90_000,
      );
      const runs = await s.list();
      expect(runs, explain()).toHaveLength(1);
      expect(runs[0]?.job.id).toBe(deliveryId);
      const checks = f.w.gh.state.checkRuns(f.w.repo).filter((check) => check.name === checkName('quick'));
      expect(checks.map((check) => check.conclusion)).toEqual(['success']);
      expect((await f.agentEvents()).filter((e) => e.what === 'start')).toHaveLength(1);
      expect(f.output()).toMatch(logged);
      expect(f.output()).not.toMatch(/; dropped/);
    },
    150_000,
  );
});

/**
 * Holds the deliveries table, and ends every app backend that waits on it, for `ms`: no delivery can
 * be recorded meanwhile, and each attempt meets a dropped connection. Calls `locked` once the table
 * is held and `during` once, a second before the end.
 */
async function storm(
  client: pg.Client,
  schemaName: string,
  ms: number,
  during: () => Promise<void>,
  locked: () => void,
) {
  const ended: number[] = [];
  await client.query('BEGIN');
  await client.query(`LOCK TABLE ${schemaName}.deliveries IN ACCESS EXCLUSIVE MODE`);
  locked();
  const until = Date.now() + ms;
  let asked = false;
  while (Date.now() < until) {
    await client.query('SELECT pg_stat_clear_snapshot()');
    const { rows } = await client.query<{ pid: number }>(
      `SELECT pid FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE '%deliveries%' AND pid <> pg_backend_pid()`,
    );
    for (const { pid } of rows) {
      await client.query('SELECT pg_terminate_backend($1)', [pid]);
      ended.push(pid);
    }
    // Late in the storm: the store's own retries (about 1 s) are used up, the delivery is held.
    if (!asked && ended.length > 0 && Date.now() > until - 1_000) {
      asked = true;
      await during();
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  await client.query('COMMIT');
  return ended;
}

describe.runIf(available)('PostgreSQL away while a mention is delivered', () => {
  it('acknowledges the webhook, stays ready saying why, and runs the mention once the database is back', async () => {
    world = await createFaultWorld(CONFIG);
    schema = freshSchema();
    const f = world;
    const s = createPostgresRunStore({ connectionString: DATABASE_URL, schema, maxConnections: 2 });
    store = s;
    admin = new pg.Client({ connectionString: DATABASE_URL });
    admin.on('error', () => {});
    await admin.connect();
    const app = await f.startApp({
      DATABASE_URL,
      AGENT_MUX_DB_SCHEMA: schema,
      AGENT_MUX_WORKERS: '1',
      AGENT_MUX_GITHUB_THROTTLE: 'off',
    });
    await untilReady(app);
    let readyDuring: { status: number; reason: string } | undefined;
    let held: () => void = () => {};
    const locked = new Promise<void>((resolve) => {
      held = resolve;
    });
    const ended = storm(
      admin,
      schema,
      4_000,
      async () => {
        const response = await fetch(`${app.url}/agent-mux/ready`);
        readyDuring = { status: response.status, reason: ((await response.json()) as { reason: string }).reason };
      },
      () => held(),
    );
    // The mention comes once the table is held (under load it could otherwise be recorded first).
    await locked;
    // Answered within GitHub's 10 s, though nothing could be recorded: held in memory.
    const started = Date.now();
    const response = await f.send(app, 'issue_comment', f.mention(5, '@agent quick: do nothing'), 'while-away');
    expect(response.status, f.output().slice(-5_000)).toBe(200);
    expect(Date.now() - started).toBeLessThan(10_000);
    expect((await ended).length).toBeGreaterThan(0);
    expect(readyDuring?.status).toBe(200);
    expect(readyDuring?.reason).toMatch(/^ready; the database is unreachable \(.*\): deliveries are held in memory/);

    let lastRuns = '';
    const explain = () => `${f.output().slice(-20_000)}\n--- runs ---\n${lastRuns}`;
    await waitFor(
      'the mention’s run to succeed',
      async () => {
        const runs = await s.list();
        lastRuns = JSON.stringify(runs.map(({ job: _job, ...run }) => run));
        return runs.some((run) => run.state === 'succeeded') ? runs : undefined;
      },
      explain,
      90_000,
    );
    expect(await s.list()).toHaveLength(1);
    expect((await f.agentEvents()).filter((e) => e.what === 'start')).toHaveLength(1);
    expect(f.output()).toMatch(/database unreachable \(.*\): delivery while-away \(issue_comment\) acknowledged/);
    expect(f.output()).toMatch(/database reachable again: 1 held deliveries recorded/);
    const ready = await fetch(`${app.url}/agent-mux/ready`);
    expect(((await ready.json()) as { reason: string }).reason).toBe('ready');
  }, 150_000);
});

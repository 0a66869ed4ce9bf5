/**
 * Three `probot run` replicas on one PostgreSQL schema while the database drops their connections
 * (issue 34): 60 mentions sent round robin (every fifth redelivered under the same id to the next
 * replica) during a 10-second storm of `pg_terminate_backend` on every connection the apps hold; then
 * one replica is SIGKILLed with runs in flight, a replacement started, and another replica stopped
 * with SIGTERM. Nothing may be lost (every mention has exactly one run), nothing concluded twice (at
 * most one check run per run that is not a retried attempt's `neutral`), nothing left in progress.
 */
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { createPostgresRunStore } from '../../src/app/store/postgres-run-store.ts';
import type { RunStore } from '../../src/app/store/run-store.ts';
import type { ProbotProcess } from '../app-e2e/probot-process.ts';
import { DATABASE_URL, dropSchema, endConnections, freshSchema, postgresReachable } from './fault-postgres.ts';
import { createFaultWorld, type FaultWorld, processAgent, QUICK_AGENT, waitFor } from './fault-world.ts';

const MENTIONS = 60;
const STORM_MS = 10_000;
const WORKERS_PER_APP = 3;

const CONFIG = `
agents:
${processAgent('quick', QUICK_AGENT)}git:
  pullRequests: false
`;

const available = await postgresReachable();

let world: FaultWorld | undefined;
let schema: string | undefined;
let store: RunStore | undefined;
const admin = new pg.Pool({ connectionString: DATABASE_URL, max: 2 });
admin.on('error', () => {});
afterAll(async () => {
  await admin.end();
});
afterEach(async () => {
  await world?.close();
  await store?.close();
  if (schema !== undefined) await dropSchema(schema);
  world = undefined;
  store = undefined;
  schema = undefined;
});

describe.runIf(available)('three app replicas while PostgreSQL drops their connections', () => {
  it(`lose none of ${MENTIONS} mentions, conclude none twice and leave nothing in progress`, async () => {
    world = await createFaultWorld(CONFIG);
    schema = freshSchema();
    const f = world;
    const { w } = f;
    const applicationName = `agent-mux-${schema}`;
    const env = {
      DATABASE_URL: `${DATABASE_URL}?application_name=${applicationName}`,
      AGENT_MUX_DB_SCHEMA: schema,
      AGENT_MUX_WORKERS: String(WORKERS_PER_APP),
      AGENT_MUX_MAX_RUNS_PER_INSTALLATION: String(3 * WORKERS_PER_APP),
      AGENT_MUX_MAX_RUNS_PER_REPO: String(3 * WORKERS_PER_APP),
      AGENT_MUX_LEASE_SECONDS: '3',
      AGENT_MUX_GITHUB_THROTTLE: 'off',
    };
    const apps: ProbotProcess[] = await Promise.all([f.startApp(env), f.startApp(env), f.startApp(env)]);
    const live = new Set<ProbotProcess>(apps);
    const s = createPostgresRunStore({ connectionString: DATABASE_URL, schema, maxConnections: 2 });
    store = s;
    const explain = () => f.output().slice(-30_000);
    const started = performance.now();

    let sent = 0;
    let redelivered = 0;
    const deliveries = new Set<string>();
    const send = async (number: number) => {
      const targets = [...live];
      const target = targets[sent % targets.length]!;
      sent++;
      const payload = f.mention(number, '@agent quick: go');
      const id = randomUUID();
      deliveries.add(id);
      const answer = await f.send(target, 'issue_comment', payload, id).catch((error: unknown) => {
        throw new Error(`delivery to replica pid ${target.child.pid} failed: ${String(error)}\n${explain()}`);
      });
      expect(answer.status).toBe(200);
      if (number % 5 === 0) {
        const other = targets[sent % targets.length]!;
        redelivered++;
        expect((await f.send(other, 'issue_comment', payload, id)).status).toBe(200);
      }
    };

    // 1. The storm: every connection the apps hold is ended every 150 ms for 10 s, while 30 mentions arrive.
    let ended = 0;
    let storming = true;
    const storm = (async () => {
      const until = performance.now() + STORM_MS;
      while (storming && performance.now() < until) {
        ended += await endConnections(admin, applicationName);
        await new Promise((resolve) => setTimeout(resolve, 150));
      }
    })();
    const numbers = Array.from({ length: MENTIONS }, (_, i) => 2000 + i);
    for (const number of numbers.slice(0, 30)) {
      await send(number);
      await new Promise((resolve) => setTimeout(resolve, STORM_MS / 40));
    }
    await storm;
    storming = false;
    // Every delivery the storm made an app hold in memory is recorded once the database is back.
    await waitFor(
      'every delivery of the storm recorded',
      async () => {
        const { rows } = await admin.query<{ n: string }>(`SELECT count(*) AS n FROM ${schema}.deliveries`);
        return Number(rows[0]?.n) === deliveries.size ? true : undefined;
      },
      explain,
      60_000,
    );

    // 2. kill -9 of one replica while runs are in flight; a replacement; 15 more mentions.
    const [killed, stopped] = apps;
    for (const number of numbers.slice(30, 40)) await send(number);
    killed!.child.kill('SIGKILL');
    live.delete(killed!);
    const replacement = await f.startApp(env);
    live.add(replacement);
    for (const number of numbers.slice(40, 50)) await send(number);

    // 3. SIGTERM of another (its runs in flight are cancelled, as a stop cancels them); 10 more.
    live.delete(stopped!);
    const stopping = stopped!.stop();
    for (const number of numbers.slice(50)) await send(number);
    await stopping;

    const terminal = new Set(['succeeded', 'failed', 'cancelled']);
    const runs = await waitFor(
      `${MENTIONS} concluded runs`,
      async () => {
        const all = await s.list();
        return all.length === MENTIONS && all.every((r) => terminal.has(r.state)) ? all : undefined;
      },
      explain,
      300_000,
    );
    const doneMs = performance.now() - started;

    // Nothing lost: one run per mention.
    expect(new Set(runs.map((r) => r.issueKey))).toEqual(new Set(numbers.map((n) => `octo/demo#${n}`)));
    // Nothing left in progress, nothing concluded twice.
    await waitFor(
      'every check run completed',
      () => (w.gh.state.checkRuns(w.repo).every((c) => c.status === 'completed') ? true : undefined),
      explain,
      30_000,
    );
    const checks = w.gh.state.checkRuns(w.repo);
    for (const run of runs) {
      const own = checks.filter((c) => c.externalId === run.id);
      const final = own.filter((c) => c.conclusion !== 'neutral');
      expect(final.length, `${run.id}: ${JSON.stringify(own)}`).toBeLessThanOrEqual(1);
      if (run.checkRunId !== undefined) expect(own.map((c) => c.id)).toContain(run.checkRunId);
    }
    // Each run's agent started at most once per attempt.
    const starts = (await f.agentEvents()).filter((e) => e.what === 'start');
    for (const run of runs) {
      expect(starts.filter((e) => e.runId === run.id).length).toBeLessThanOrEqual(run.attempts + 1);
    }

    const output = f.output();
    const count = (pattern: RegExp) => output.split('\n').filter((line) => pattern.test(line)).length;
    const byState = Object.fromEntries(
      [...terminal].map((state) => [state, runs.filter((r) => r.state === state).length]),
    );
    console.info(
      `${MENTIONS} mentions (${deliveries.size} deliveries, ${redelivered} of them redelivered to another replica) on 3 replicas: ${ended} connections ended in ` +
        `${STORM_MS / 1000} s; ${count(/trying again \(attempt/)} statements retried, ` +
        `${count(/kept in memory until it can be recorded/)} deliveries held in memory, ` +
        `${count(/dispatched again in/)} dispatches put back; runs ${JSON.stringify(byState)}, ` +
        `${runs.filter((r) => r.attempts > 0).length} retried after the kill; ${starts.length} agent starts; ` +
        `all concluded in ${Math.round(doneMs)} ms`,
    );
    expect(ended).toBeGreaterThan(0);
    // What did not succeed was cancelled by the SIGTERM (a stop cancels what it runs) or failed with a reason.
    for (const run of runs.filter((r) => r.state !== 'succeeded')) expect(run.reason ?? '').not.toBe('');
    w.gh.assertNoViolations();
  }, 600_000);
});

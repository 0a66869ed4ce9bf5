/**
 * The app is SIGKILLed while it dispatches a mention, at each point between taking the event and
 * queuing its run (`AGENT_MUX_TEST_CRASH_AT`: the real `probot run` kills itself there). A second
 * `probot run` on the same PostgreSQL queue then runs the mention exactly once: the event was leased,
 * not deleted, so it is taken again when the lease expires; a delivery queues at most one run. GitHub's
 * "Redeliver" of that delivery to the new app starts nothing more.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { DispatchPoint } from '../../src/app/dispatch-event.ts';
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
const POINTS: DispatchPoint[] = ['after-take', 'after-decide', 'after-dispatch'];

let world: FaultWorld | undefined;
let schema: string | undefined;
let store: RunStore | undefined;
afterEach(async () => {
  await world?.close();
  await store?.close();
  if (schema !== undefined) await dropSchema(schema);
  world = undefined;
  store = undefined;
  schema = undefined;
});

describe.runIf(available)('the app SIGKILLed while it dispatches a mention (PostgreSQL)', () => {
  it.each(POINTS)(
    'killed at %s: after a restart the mention runs exactly once',
    async (point) => {
      world = await createFaultWorld(CONFIG);
      schema = freshSchema();
      const f = world;
      const { w } = f;
      const env = {
        DATABASE_URL,
        AGENT_MUX_DB_SCHEMA: schema,
        AGENT_MUX_LEASE_SECONDS: '2',
        AGENT_MUX_WORKERS: '1',
        AGENT_MUX_GITHUB_THROTTLE: 'off',
      };
      const s = createPostgresRunStore({ connectionString: DATABASE_URL, schema, maxConnections: 2 });
      store = s;
      let lastRuns = '';
      const explain = () => `${f.output().slice(-20_000)}\n--- runs ---\n${lastRuns}`;

      const first = await f.startApp({ ...env, AGENT_MUX_TEST_CRASH_AT: point });
      const deliveryId = `crash-${point}`;
      const mention = f.mention(5, '@agent quick: do nothing');
      expect((await f.send(first, 'issue_comment', mention, deliveryId)).status).toBe(200);
      await waitFor(
        'the app to kill itself',
        () => (first.child.signalCode === 'SIGKILL' ? true : undefined),
        explain,
        30_000,
      );

      const second = await f.startApp(env);
      // GitHub's "Redeliver" of the same delivery: recorded before, so it adds nothing; the unfinished
      // event is still dispatched.
      expect((await f.send(second, 'issue_comment', mention, deliveryId)).status).toBe(200);
      const done = await waitFor(
        'the mention’s run to succeed',
        async () => {
          const runs = await s.list();
          lastRuns = JSON.stringify(runs.map(({ job: _job, ...run }) => run));
          return runs.some((run) => run.state === 'succeeded') ? runs : undefined;
        },
        explain,
      );
      // Long enough for a second lease to expire: nothing else is queued.
      await new Promise((resolve) => setTimeout(resolve, 3_000));
      const runs = await s.list();
      expect(runs, explain()).toHaveLength(1);
      expect(runs[0]?.id).toBe(done[0]?.id);
      expect(runs[0]?.job.id).toBe(deliveryId);
      const checks = w.gh.state.checkRuns(w.repo).filter((check) => check.name === checkName('quick'));
      expect(checks.map((check) => check.conclusion)).toEqual(['success']);
      const starts = (await f.agentEvents()).filter((e) => e.what === 'start');
      expect(starts).toHaveLength(1);
    },
    120_000,
  );
});

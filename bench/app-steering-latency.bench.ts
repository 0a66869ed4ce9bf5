import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { claudeAdapter } from '../src/adapters/agents/claude/index.ts';
import { createPostgresRunStore } from '../src/app/store/postgres-run-store.ts';
import type { Adapter } from '../src/core/adapter/index.ts';
import { createAppWorld, waitFor } from '../test/app/app-world.ts';
import { commentEvent, createGitHubWorld } from '../test/support/github-world.ts';
import { withProgram } from '../test/support/with-program.ts';
import { createBenchDatabase } from './app-database.ts';
import { type Benchmark, fixed, median, ms, percentile, type Target } from './bench-kit.ts';

/** Comments steered into one run, one after another. */
const COMMENTS = 12;
/** How often the worker holding the run reads the store for answers and comments (the app's default). */
const POLL_MS = 300;
const agent = fileURLToPath(new URL('../test/fixtures/bin/stream-json-agent.mjs', import.meta.url));
const CONFIG = 'agents:\n  claude:\n    adapter: claude\n';
const sleep = (n: number) => new Promise((r) => setTimeout(r, n));

/**
 * The Claude Code adapter on the stream-json stand-in, noting when each message the stand-in echoes
 * (where it took it) reaches the core: `seen` gets the message's text and the time.
 */
function observed(seen: Map<string, number>): Adapter {
  const adapter = withProgram(claudeAdapter(), process.execPath, [agent]);
  const launch = adapter.launch;
  if (launch.kind !== 'process') throw new Error('not a process adapter');
  return {
    ...adapter,
    launch: {
      ...launch,
      controller: () => ({
        onRecord(record) {
          const value = record.kind === 'json' ? (record.value as { type?: string; message?: unknown }) : undefined;
          const text = value?.type === 'user' ? JSON.stringify(value.message) : '';
          const step = /step (\d+)/.exec(text)?.[0];
          if (step !== undefined && !seen.has(step)) seen.set(step, performance.now());
        },
      }),
    },
  };
}

/** One measurement: the comments' latencies from webhook to the agent's stream, in ms. */
async function measure(store: 'SQLite' | 'PostgreSQL'): Promise<number[]> {
  const db = store === 'PostgreSQL' ? await createBenchDatabase() : undefined;
  const w = await createGitHubWorld({ config: CONFIG });
  const seen = new Map<string, number>();
  const builtins = w.registry;
  w.registry = () => builtins().register(observed(seen));
  const app = await createAppWorld({
    world: w,
    ...(db ? { store: createPostgresRunStore({ connectionString: db.url }) } : {}),
    startLoops: true,
    answerPollMs: POLL_MS,
    env: { STEP_MS: '600000', TAKE_AT_ONCE: '1' },
    fenceReadOnly: [fileURLToPath(new URL('..', import.meta.url))],
  });
  try {
    w.gh.state.addIssue(w.repo, { number: 5, title: 'Steer me', body: '', user: 'alice' });
    await app.receive('issue_comment', commentEvent(w, 5, 'alice', '@agent start').payload);
    await waitFor(async () => ((await app.store.list({ states: ['running'] })).length > 0 ? true : undefined), 'run');
    await sleep(1000);
    const latencies: number[] = [];
    for (let i = 0; i < COMMENTS; i++) {
      const step = `step ${i}`;
      const event = commentEvent(w, 5, 'bob', `@agent ${step}`);
      const at = performance.now();
      await app.receive('issue_comment', event.payload);
      while (!seen.has(step)) await sleep(2);
      latencies.push((seen.get(step) ?? at) - at);
      // Land at a different point of the poll cycle each time.
      await sleep(41 * (i % 7));
    }
    return latencies;
  } finally {
    await app.close();
    await w.close();
    await db?.drop();
  }
}

/**
 * Issue 37.3 in the app: how long a comment takes from its webhook to the running agent's stream.
 * The app as it runs, in process: Probot receives `issue_comment`, the dispatcher checks the
 * mention and records it in the store for the issue's run in progress; the worker holding the run
 * reads the store every POLL_MS (its default), checks trust (a permission read on the fake GitHub),
 * reacts 👀 and writes the message to the agent, whose echo the core then reads. Measured from
 * `probot.receive` to the echo, and set against the worker's poll interval; once on the SQLite
 * store (one replica's file) and once on PostgreSQL (a fresh database of its own on the local server).
 */
export const benchmark: Benchmark = {
  name: 'app-steering-latency',
  title: 'a comment during a run, from its webhook to the agent’s stream (the app: store, worker poll)',
  async run(log) {
    const targets: Target[] = [];
    const facts: string[] = [];
    for (const store of ['SQLite', 'PostgreSQL'] as const) {
      const latencies = await measure(store);
      const p50 = median(latencies);
      const p95 = percentile(latencies, 95);
      log(
        `${store} store: ${COMMENTS} comments, the worker reading the store every ${POLL_MS} ms (load average ${fixed(loadavg()[0] ?? 0, 1)})`,
      );
      log(`  webhook → agent's stream: median ${ms(p50)}, p95 ${ms(p95)}, max ${ms(Math.max(...latencies))}`);
      log(
        `  in poll intervals: median ${fixed(p50 / POLL_MS)}, p95 ${fixed(p95 / POLL_MS)} (~0.5 waiting for the poll + trust check and write)`,
      );
      targets.push(
        { label: `${store}: median latency / poll interval`, value: p50 / POLL_MS, op: '<=', limit: 1.5, unit: '×' },
        { label: `${store}: p95 latency / poll interval`, value: p95 / POLL_MS, op: '<=', limit: 2.5, unit: '×' },
      );
      facts.push(`app steering (${store}) median ${ms(p50)} at a ${POLL_MS} ms store poll (p95 ${ms(p95)})`);
    }
    return { targets, facts, flags: [] };
  },
};

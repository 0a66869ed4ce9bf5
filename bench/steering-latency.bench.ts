import { claudeAdapter } from '../src/adapters/agents/claude/index.ts';
import type { AgentEvent } from '../src/core/events/index.ts';
import { handleTrigger } from '../src/github/use-cases/handle-trigger.ts';
import { commentEvent, createGitHubWorld, SELF_LOGIN } from '../test/support/github-world.ts';
import { runInWorld } from '../test/support/run-in-world.ts';
import { withProgram } from '../test/support/with-program.ts';
import { type Benchmark, fixed, median, ms, percentile } from './bench-kit.ts';

/** Comments steered into one run, one after another. */
const COMMENTS = 12;
/** The Action's poll interval here (its input `poll-interval-seconds`; 5 s by default). */
const POLL_MS = 250;
const agent = new URL('../test/fixtures/bin/stream-json-agent.mjs', import.meta.url).pathname;
const CONFIG = 'agents:\n  claude:\n    adapter: claude\n';
const sleep = (n: number) => new Promise((r) => setTimeout(r, n));

/**
 * Issue 37.3: how long a comment takes from GitHub to the running agent's stream. The Action's
 * path as it runs: executeRun on the fake GitHub (real HTTP, conditional requests), the thread read
 * by the poller every POLL_MS, the trust check (a permission read), the message written to the
 * Claude Code adapter's stream-json input and echoed by a stand-in that takes it at once. Measured
 * from the comment's creation to its `steered` notice, and set against the poll interval: a comment
 * waits for the next poll (half an interval on average), then its own round trip.
 */
export const benchmark: Benchmark = {
  name: 'steering-latency',
  title: 'a comment during a run, from GitHub to the agent’s stream (Action: poller)',
  async run(log) {
    const w = await createGitHubWorld({ config: CONFIG });
    try {
      w.gh.state.addIssue(w.repo, { number: 5, title: 'Steer me', body: '', user: 'alice' });
      const decision = await handleTrigger(w.deps, commentEvent(w, 5, 'alice', '@agent start'));
      if (decision.kind !== 'run') throw new Error(decision.kind);
      const notices: { at: number; message: string }[] = [];
      const abort = new AbortController();
      const registry = () => w.registry().register(withProgram(claudeAdapter(), process.execPath, [agent]));
      const running = runInWorld(w, decision.job, {
        answer: () => {},
        registry,
        env: { ...process.env, STEP_MS: '60000', TAKE_AT_ONCE: '1' },
        intervalMs: POLL_MS,
        signal: abort.signal,
        onEvent: (event: AgentEvent) => {
          if (event.type === 'notice' && event.code === 'steered')
            notices.push({ at: performance.now(), message: event.message });
        },
      });
      while (!w.gh.state.comments(w.repo, 5).some((c) => c.user.login === SELF_LOGIN)) await sleep(20);
      await sleep(500);
      const latencies: number[] = [];
      for (let i = 0; i < COMMENTS; i++) {
        const before = notices.length;
        const at = performance.now();
        w.gh.state.addComment(w.repo, 5, { body: `@agent step ${i}`, user: 'bob' });
        while (notices.length === before) await sleep(2);
        latencies.push((notices[before]?.at ?? at) - at);
        // Land at a different point of the poll cycle each time.
        await sleep(37 * (i % 7));
      }
      abort.abort();
      await running.catch(() => undefined);
      const p50 = median(latencies);
      const p95 = percentile(latencies, 95);
      log(`${COMMENTS} comments, poll interval ${POLL_MS} ms`);
      log(`  comment → agent's stream: median ${ms(p50)}, p95 ${ms(p95)}, max ${ms(Math.max(...latencies))}`);
      log(`  median / poll interval: ${fixed(p50 / POLL_MS)} (a poll every interval: ~0.5 waiting + the round trip)`);
      return {
        targets: [
          { label: 'median latency / poll interval', value: p50 / POLL_MS, op: '<=', limit: 1.5, unit: '×' },
          { label: 'p95 latency / poll interval', value: p95 / POLL_MS, op: '<=', limit: 2.5, unit: '×' },
        ],
        facts: [`steering median ${ms(p50)} at a ${POLL_MS} ms poll (p95 ${ms(p95)})`],
        flags: [],
      };
    } finally {
      await w.close();
    }
  },
};

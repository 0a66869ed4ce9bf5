import { type ChildProcess, spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import { RUN_MARKER_ENV, stopLeftoverAgents } from '../src/action/stop-leftover-agents.ts';
import { createBuiltinRegistry } from '../src/adapters/builtin-registry.ts';
import type { Adapter } from '../src/core/adapter/index.ts';
import { runnerEnv } from '../test/action/run-action.ts';
import { type FakeModelServer, startFakeModelServer } from '../test/live/fake-model-server.ts';
import type { LiveSpec } from '../test/live/live-spec.ts';
import { loadSpecs } from '../test/live/load-specs.ts';
import { commentEvent, createGitHubWorld, type GitHubWorld } from '../test/support/github-world.ts';
import { actionBundles } from './action-bundles.ts';
import { type AgentBenchSetup, aloneInputOf, setUpAgent } from './agent-start/agent-bench-setup.ts';
import { type CapturedLaunch, captureAgentLaunch } from './agent-start/captured-launch.ts';
import { type AloneInput, startAlone } from './agent-start/start-alone.ts';
import { type Benchmark, fixed, median, type Target } from './bench-kit.ts';

/** Measured pairs per agent (after one warm-up pair): `AGENT_MUX_BENCH_PAIRS`. */
const PAIRS = Number(process.env.AGENT_MUX_BENCH_PAIRS) || 4;
/** agent-mux's own share of the time to the first model request, per agent. */
const OVERHEAD_LIMIT_MS = 1000;
/** A run that has made no model request by then is a failure of that agent's measurement. */
const RUN_TIMEOUT_MS = 60_000;
const { bundle, baseline } = actionBundles();
const INSTRUCTION = 'Say hello in one sentence.';

/**
 * The agents measured by default: one launch of every built-in agent whose CLI is on npm (the
 * headless one), and Codex over ACP. `AGENT_MUX_BENCH_AGENTS=all` measures every built-in adapter
 * whose CLI is on npm (the ACP launches too); a comma-separated list names adapters.
 */
const DEFAULT_AGENTS = [
  'claude',
  'codex',
  'codex-acp',
  'copilot',
  'gemini',
  'kilo',
  'omp',
  'openclaw',
  'opencode',
  'pi',
  'qwen',
];

interface AgentResult {
  id: string;
  action: number[];
  alone: number[];
  /** The baseline bundle's times, when one is given. */
  baseline: number[];
  error?: string;
}

/** Resolves with the time (ms after `start`) of the next request the fake model server records. */
function nextModelRequest(model: FakeModelServer, start: number, child: ChildProcess, what: string): Promise<number> {
  const before = model.requests.length;
  return new Promise<number>((resolve, reject) => {
    const poll = setInterval(() => {
      if (model.requests.length > before) done(() => resolve(performance.now() - start));
    }, 1);
    const timer = setTimeout(
      () => done(() => reject(new Error(`${what}: no model request within ${RUN_TIMEOUT_MS / 1000} s`))),
      RUN_TIMEOUT_MS,
    );
    const exited = (code: number | null) =>
      done(() => reject(new Error(`${what} exited (${code}) before any model request`)));
    child.on('exit', exited);
    child.on('error', (error) => done(() => reject(error)));
    function done(settle: () => void) {
      clearInterval(poll);
      clearTimeout(timer);
      child.off('exit', exited);
      settle();
    }
  });
}

function kill(child: ChildProcess, group: boolean): void {
  try {
    if (group && child.pid) process.kill(-child.pid, 'SIGKILL');
    else child.kill('SIGKILL');
  } catch {
    // gone already
  }
}

interface AgentContext {
  world: GitHubWorld;
  model: FakeModelServer;
  adapter: Adapter;
  setup: AgentBenchSetup;
  input: AloneInput;
  /** The first workflow run id of this agent's runs. */
  runBase: number;
}

/** The two measured starts of one agent; the first Action run captures the agent's launch for the CLI-alone runs. */
function agentMeasure(ctx: AgentContext) {
  const { world, model, adapter, setup } = ctx;
  let runs = 0;
  let launch: CapturedLaunch | undefined;
  return {
    /** `node dist/index.js` on a fresh mention with this agent configured, as the runner starts it → first model request. */
    async action(script = bundle): Promise<number> {
      const id = ctx.runBase + runs++;
      // A first mention on an issue of its own (a follow-up would plan a later turn of the same conversation).
      const issue = id - ctx.runBase + 1;
      world.gh.state.addIssue(world.repo, { number: issue, title: `Benchmark ${issue}`, user: 'alice' });
      const files = await runnerEnv(
        world,
        commentEvent(world, issue, 'alice', `@agent ${adapter.id}: ${INSTRUCTION}`),
        {
          agent: adapter.id,
          'agent-env': Object.keys(setup.env).join(','),
        },
      );
      const env = {
        ...files.env,
        ...setup.env,
        HOME: setup.home,
        RUNNER_TOOL_CACHE: setup.toolCache,
        GITHUB_RUN_ID: String(id),
      };
      const start = performance.now();
      const child = spawn(process.execPath, [script], { env, stdio: 'ignore' });
      try {
        const ms = await nextModelRequest(model, start, child, `node ${script}`);
        for (let tries = 0; !launch && tries < 5; tries++) {
          launch = await captureAgentLaunch(`gha-${id}-1/`);
          if (!launch) await new Promise((resolve) => setTimeout(resolve, 20));
        }
        return ms;
      } finally {
        kill(child, false);
        await stopLeftoverAgents(`gha-${id}-1/`, 'SIGKILL', { prefix: true });
      }
    },
    /** The same program, argv, environment and cwd, started alone → first model request. */
    async alone(): Promise<number> {
      if (!launch) throw new Error(`${adapter.id}: the agent's launch was not captured`);
      const marker = `bench-alone-${ctx.runBase}-${runs++}/`;
      const env = { ...launch.env, [RUN_MARKER_ENV]: marker };
      const start = performance.now();
      const child = startAlone(launch, ctx.input, env);
      try {
        return await nextModelRequest(model, start, child, launch.argv[0] ?? 'agent');
      } finally {
        kill(child, true);
        await stopLeftoverAgents(marker, 'SIGKILL', { prefix: true });
      }
    },
  };
}

async function measureAgent(
  adapter: Adapter,
  spec: LiveSpec,
  index: number,
  log: (line: string) => void,
): Promise<AgentResult> {
  const result: AgentResult = { id: adapter.id, action: [], alone: [], baseline: [] };
  // The model takes its time to answer, so the agent is still running when its launch is read from /proc.
  const model = await startFakeModelServer({ case: 'plain', replyDelayMs: 1500 });
  const world = await createGitHubWorld({ config: `agents:\n  ${adapter.id}:\n    adapter: ${adapter.id}\n` });
  let setup: AgentBenchSetup | undefined;
  try {
    setup = await setUpAgent(adapter, spec, model.url, world.workspace, log);
    const input = await aloneInputOf(adapter, INSTRUCTION, world.workspace);
    const measure = agentMeasure({ world, model, adapter, setup, input, runBase: 9000 + index * 100 });
    for (let i = 0; i < PAIRS + 1; i++) {
      // Alternately, so that the machine's noise falls on both alike; the first pair warms the
      // agent's HOME, the checkout and the page cache.
      const a = await measure.action();
      const b = await measure.alone();
      const c = baseline ? await measure.action(baseline) : undefined;
      if (i === 0) continue;
      result.action.push(a);
      result.alone.push(b);
      if (c !== undefined) result.baseline.push(c);
    }
  } catch (error) {
    result.error = error instanceof Error ? error.message : String(error);
  } finally {
    await model.close();
    await world.close();
    if (setup) for (const dir of [setup.home, setup.toolCache]) rmSync(dir, { recursive: true, force: true });
  }
  return result;
}

function wantedAgents(adapters: readonly Adapter[]): Adapter[] {
  const asked = process.env.AGENT_MUX_BENCH_AGENTS;
  const onNpm = adapters.filter((a) => a.program?.npmPackage && a.launch.kind === 'process');
  if (asked === 'all') return onNpm;
  const names = asked ? asked.split(/[\s,]+/).filter(Boolean) : DEFAULT_AGENTS;
  return names.map((name) => {
    const adapter = onNpm.find((a) => a.id === name);
    if (!adapter) throw new Error(`${name} is not a built-in agent whose CLI is on npm`);
    return adapter;
  });
}

/**
 * Per built-in agent, in one run and alternately: (a) the Action's bundle as the runner runs it on
 * an issue comment naming the agent, with its CLI in a warm tool cache and pointed at the fake
 * model server (as the live tests point it), from `spawn` to the first request at that server;
 * (b) the agent's program alone, started with the argv, environment and cwd agent-mux started it
 * with in (a) (read from /proc), fed what the adapter feeds it, to its first request. The
 * difference of the medians is agent-mux's own share: the target is ≤ 1 s per agent.
 */
export const benchmark: Benchmark = {
  name: 'agent-first-request',
  title: `node dist/index.js → the agent's first model request vs the agent's CLI alone (median of ${PAIRS} alternate pairs per agent)`,
  async run(log) {
    const adapters = wantedAgents(createBuiltinRegistry().list());
    const specs = await loadSpecs();
    const results: AgentResult[] = [];
    for (const [index, adapter] of adapters.entries()) {
      const spec = specs.find((s) => s.create().id === adapter.id);
      if (!spec) {
        results.push({ id: adapter.id, action: [], alone: [], baseline: [], error: 'no live spec (test/live/specs)' });
        continue;
      }
      const result = await measureAgent(adapter, spec, index, log);
      results.push(result);
      if (result.error) {
        log(`${adapter.id}: not measured: ${result.error}`);
        continue;
      }
      const a = median(result.action);
      const b = median(result.alone);
      log(
        `${adapter.id.padEnd(10)} Action ${fixed(a, 0).padStart(5)} ms · CLI alone ${fixed(b, 0).padStart(5)} ms · ` +
          `agent-mux ${fixed(a - b, 0).padStart(5)} ms   (Action ${result.action.map((v) => fixed(v, 0)).join(', ')}; ` +
          `alone ${result.alone.map((v) => fixed(v, 0)).join(', ')})`,
      );
      if (result.baseline.length > 0) {
        const c = median(result.baseline);
        log(
          `${''.padEnd(10)} baseline ${fixed(c, 0).padStart(5)} ms · agent-mux ${fixed(c - b, 0).padStart(5)} ms   ` +
            `(${result.baseline.map((v) => fixed(v, 0)).join(', ')})`,
        );
      }
    }
    const measured = results.filter((r) => !r.error);
    const targets: Target[] = measured.map((r) => ({
      label: `${r.id}: agent-mux's own time to the first model request (Action − CLI alone)`,
      value: median(r.action) - median(r.alone),
      op: '<=',
      limit: OVERHEAD_LIMIT_MS,
      unit: ' ms',
      digits: 0,
    }));
    return {
      targets,
      facts: measured.map(
        (r) =>
          `${r.id}: Action ${fixed(median(r.action), 0)} ms, CLI alone ${fixed(median(r.alone), 0)} ms to the first model request` +
          (r.baseline.length > 0 ? ` (baseline bundle ${fixed(median(r.baseline), 0)} ms)` : ''),
      ),
      flags: results.filter((r) => r.error).map((r) => `${r.id} not measured: ${r.error}`),
    };
  },
};

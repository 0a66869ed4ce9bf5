import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { httpAdapter } from '../src/adapters/protocols/http/http-adapter.ts';
import { processAdapter } from '../src/adapters/protocols/process/process-adapter.ts';
import type { Adapter } from '../src/core/adapter/index.ts';
import { startRun } from '../src/core/run/start-run.ts';
import { startRemoteServer } from '../src/remote/index.ts';
import { type Benchmark, fixed, fixtureBin, int, median, ms, percentile } from './bench-kit.ts';

const RUNS = 64;
const CONCURRENCY = 8;
const EVENTS = 200;
const BATCH = 20;
const INTERVAL_MS = 1;
const ROUNDS = 5;
const WARMUP_RUNS = 8;
const TOKEN_ENV = 'AGENT_MUX_BENCH_REMOTE_TOKEN';

/** Counts the agent programs alive at once (translator `init` … `finish`: spawned … exited). */
interface OpenCounter {
  open: number;
  max: number;
}

/** The fixture agent as a process adapter whose runs are counted in `counter`. */
function countedAgent(id: string, counter: OpenCounter): Adapter {
  const base = processAdapter(id, {
    binary: process.execPath,
    args: [fixtureBin('timed-progress.mjs'), String(EVENTS), String(BATCH), String(INTERVAL_MS)],
  });
  if (base.launch.kind !== 'process') throw new Error('the process adapter has no process launch');
  const translator = base.launch.translator;
  return {
    ...base,
    launch: {
      ...base.launch,
      translator: {
        ...translator,
        init(ctx) {
          counter.open++;
          counter.max = Math.max(counter.max, counter.open);
          return translator.init(ctx);
        },
        finish(exit, state) {
          counter.open--;
          return translator.finish?.(exit, state) ?? [];
        },
      },
    },
  };
}

interface Sample {
  ms: number;
  completed: number;
  events: number;
  latenciesMs: number[];
  firstFailure?: string;
}

/** Runs `RUNS` runs of `adapter`, at most `limit` started at once (`limit` = RUNS: all at once). */
async function runMany(
  adapter: Adapter,
  runs: number,
  limit: number,
  cwd: string,
  env: Record<string, string | undefined>,
): Promise<Sample> {
  const sample: Sample = { ms: 0, completed: 0, events: 0, latenciesMs: [] };
  const one = async (): Promise<void> => {
    const handle = startRun({ adapter, request: { prompt: 'remote pool benchmark', cwd }, env, graceMs: 1000 });
    for await (const event of handle.events) {
      if (event.type !== 'progress') continue;
      const arrived = performance.timeOrigin + performance.now();
      sample.events++;
      if (event.summary.startsWith('t=')) sample.latenciesMs.push(arrived - Number(event.summary.slice(2)));
    }
    const end = await handle.result;
    if (end.reason === 'completed') sample.completed++;
    else sample.firstFailure ??= `${end.reason}: ${end.message ?? '(no message)'}`;
  };
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < runs) {
      next++;
      await one();
    }
  };
  const started = performance.now();
  await Promise.all(Array.from({ length: Math.min(limit, runs) }, worker));
  sample.ms = performance.now() - started;
  return sample;
}

interface Stats {
  runsPerSec: number;
  eventsPerSec: number;
  p50: number;
  p99: number;
  max: number;
  completed: number;
  events: number;
}

function stats(samples: Sample[]): Stats {
  const latencies = samples.flatMap((s) => s.latenciesMs);
  return {
    runsPerSec: median(samples.map((s) => (s.completed / s.ms) * 1000)),
    eventsPerSec: median(samples.map((s) => (s.events / s.ms) * 1000)),
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    max: latencies.reduce((a, b) => Math.max(a, b), Number.NEGATIVE_INFINITY),
    completed: Math.min(...samples.map((s) => s.completed)),
    events: Math.min(...samples.map((s) => s.events)),
  };
}

export const benchmark: Benchmark = {
  name: 'remote-pool',
  title: `${RUNS} runs (${EVENTS} timed progress events each) through one http adapter (pool ${CONCURRENCY}) → startRemoteServer (bearer, maxSessions ${CONCURRENCY}) vs the process adapter directly (${CONCURRENCY} at once)`,
  async run(log) {
    const token = `bench-${Math.random().toString(36).slice(2)}`;
    const env = { ...process.env, [TOKEN_ENV]: token };
    const serverCounter: OpenCounter = { open: 0, max: 0 };
    const directCounter: OpenCounter = { open: 0, max: 0 };
    const workspace = await mkdtemp(join(tmpdir(), 'agent-mux-bench-remote-'));
    const server = await startRemoteServer({
      adapter: countedAgent('timed-progress', serverCounter),
      auth: { type: 'bearer', token },
      maxSessions: CONCURRENCY,
      workspaceRoot: workspace,
      graceMs: 1000,
    });
    const flags: string[] = [];
    const direct: Sample[] = [];
    const remote: Sample[] = [];
    try {
      // One adapter instance for every run: its pool is what keeps the remote at 8 sessions.
      const http = httpAdapter('bench-remote', {
        type: 'http',
        baseUrl: server.url,
        auth: { type: 'bearer', tokenEnv: TOKEN_ENV },
        protocol: 'ca-http-v1',
        maxConcurrentSessions: CONCURRENCY,
      });
      const local = countedAgent('timed-progress', directCounter);
      // Warm up both paths (node start-up, the server's first sessions), then interleave rounds.
      await runMany(local, WARMUP_RUNS, CONCURRENCY, workspace, env);
      await runMany(http, WARMUP_RUNS, WARMUP_RUNS, workspace, env);
      for (let round = 0; round < ROUNDS; round++) {
        const d = await runMany(local, RUNS, CONCURRENCY, workspace, env);
        const r = await runMany(http, RUNS, RUNS, workspace, env);
        direct.push(d);
        remote.push(r);
        log(
          `round ${round}: direct ${fixed(d.ms, 0)} ms (${d.completed}/${RUNS} completed, ${int(d.events)} events) | http ${fixed(r.ms, 0)} ms (${r.completed}/${RUNS} completed, ${int(r.events)} events)`,
        );
        for (const [label, s] of [
          ['direct', d],
          ['http', r],
        ] as const) {
          if (s.completed !== RUNS)
            flags.push(`round ${round} ${label}: ${RUNS - s.completed} runs failed (${s.firstFailure})`);
          if (s.events !== RUNS * EVENTS)
            flags.push(`round ${round} ${label}: ${s.events} progress events, ${RUNS * EVENTS} expected`);
        }
      }
    } finally {
      await server.close();
      await rm(workspace, { recursive: true, force: true });
    }
    const d = stats(direct);
    const r = stats(remote);
    const line = (label: string, s: Stats) =>
      `${label.padEnd(34)} ${fixed(s.runsPerSec, 1).padStart(7)} runs/s ${int(s.eventsPerSec).padStart(8)} events/s  latency p50 ${ms(s.p50).padStart(9)}  p99 ${ms(s.p99).padStart(9)}  max ${ms(s.max)}`;
    log(
      `${ROUNDS} rounds of ${RUNS} runs × ${EVENTS} events (batches of ${BATCH} every ${INTERVAL_MS} ms); rates are medians`,
    );
    log(line(`(a) process adapter, ${CONCURRENCY} at once`, d));
    log(line(`(b) http adapter → remote server`, r));
    const runsRatio = r.runsPerSec / d.runsPerSec;
    const eventsRatio = r.eventsPerSec / d.eventsPerSec;
    const p99Ratio = r.p99 / d.p99;
    log(`ratios b/a: runs/s ${fixed(runsRatio)}  events/s ${fixed(eventsRatio)}  p99 latency ${fixed(p99Ratio)}`);
    log(
      `agent programs alive at once: server side max ${serverCounter.max}, direct max ${directCounter.max} (left open: ${serverCounter.open}, ${directCounter.open})`,
    );
    log('latency = arrival in this process − the stamp the agent printed (wall clock, same machine)');
    log('(the server also answers 503 past maxSessions: such a run would fail and miss the completed target)');
    if (directCounter.max > CONCURRENCY) flags.push(`direct: ${directCounter.max} agents alive at once`);
    if (serverCounter.open !== 0 || directCounter.open !== 0)
      flags.push(
        `agents still counted open after the runs: server ${serverCounter.open}, direct ${directCounter.open}`,
      );
    if (r.p99 > 20 * r.p50) flags.push(`http: p99 latency is ${fixed(r.p99 / r.p50, 0)}× p50`);
    return {
      targets: [
        {
          label: `http runs completed (worst of ${ROUNDS} rounds)`,
          value: r.completed,
          op: '>=',
          limit: RUNS,
          unit: '',
          digits: 0,
        },
        {
          label: 'agent runs alive at once on the server (max)',
          value: serverCounter.max,
          op: '<=',
          limit: CONCURRENCY,
          unit: '',
          digits: 0,
        },
      ],
      facts: [
        `(a) direct: ${fixed(d.runsPerSec, 1)} runs/s, ${int(d.eventsPerSec)} events/s, p99 ${ms(d.p99)}`,
        `(b) http→remote: ${fixed(r.runsPerSec, 1)} runs/s, ${int(r.eventsPerSec)} events/s, p99 ${ms(r.p99)}`,
        `ratios b/a: runs/s ${fixed(runsRatio)}, events/s ${fixed(eventsRatio)}, p99 latency ${fixed(p99Ratio)}`,
      ],
      flags,
    };
  },
};

import { spawn } from 'node:child_process';
import { processAdapter } from '../src/adapters/protocols/process/process-adapter.ts';
import { startRun } from '../src/core/run/start-run.ts';
import { type Benchmark, collectGarbage, fixed, fixtureBin, int, median, mib, RssSampler } from './bench-kit.ts';

const EVENTS = 1_000_000;
const ROUNDS = 3;
const TARGET_RATE = 200_000;
const TARGET_GROWTH = 64 * 2 ** 20;

const flood = fixtureBin('flood.mjs');

interface PipelineRound {
  ms: number;
  events: number;
  reason: string;
  growth: number;
  heapGrowth: number;
}

/** The whole run pipeline: spawn, decode, translate, stamp, redact, queue, and a consumer that only counts. */
async function pipelineRound(): Promise<PipelineRound> {
  const adapter = processAdapter('flood', { binary: process.execPath, args: [flood, String(EVENTS)] });
  collectGarbage();
  const heapBefore = process.memoryUsage().heapUsed;
  let heapMax = heapBefore;
  const rss = new RssSampler();
  const started = performance.now();
  const handle = startRun({ adapter, request: { prompt: 'flood', cwd: process.cwd() } });
  let events = 0;
  for await (const _event of handle.events) {
    if ((++events & 0x3fff) === 0) {
      rss.sample();
      heapMax = Math.max(heapMax, process.memoryUsage().heapUsed);
    }
  }
  const end = await handle.result;
  const ms = performance.now() - started;
  const memory = rss.stop();
  return { ms, events, reason: end.reason, growth: memory.growth, heapGrowth: heapMax - heapBefore };
}

/** The pipe alone: the same child, its stdout read and thrown away. */
function baselineRound(): Promise<{ ms: number; bytes: number }> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, [flood, String(EVENTS)], { stdio: ['ignore', 'pipe', 'inherit'] });
    let bytes = 0;
    child.stdout.on('data', (chunk: Buffer) => {
      bytes += chunk.length;
    });
    child.on('error', reject);
    child.on('close', () => resolve({ ms: performance.now() - started, bytes }));
  });
}

export const benchmark: Benchmark = {
  name: 'pipeline-flood',
  title: `startRun(process adapter, node flood.mjs ${int(EVENTS)}) with a counting consumer vs reading the pipe only`,
  async run(log) {
    const flags: string[] = [];
    const pipeline: PipelineRound[] = [];
    const baseline: { ms: number; bytes: number }[] = [];
    await baselineRound(); // warm the page cache and the child's start-up
    for (let round = 0; round < ROUNDS; round++) {
      const p = await pipelineRound();
      const b = await baselineRound();
      pipeline.push(p);
      baseline.push(b);
      const ratio = b.ms / p.ms;
      log(
        `round ${round}: pipeline ${fixed(p.ms, 0)} ms (${int((p.events / p.ms) * 1000)} ev/s, RSS +${mib(p.growth)}, heap +${mib(p.heapGrowth)}) | pipe ${fixed(b.ms, 0)} ms (${int((EVENTS / b.ms) * 1000)} ev/s, ${mib((b.bytes / b.ms) * 1000)}/s) | ratio ${fixed(ratio)}`,
      );
      // `EVENTS` progress events plus `run_end` (the final `complete` record emits no event).
      if (p.events !== EVENTS + 1) flags.push(`round ${round}: ${p.events} events, ${EVENTS + 1} expected`);
      if (p.reason !== 'completed') flags.push(`round ${round}: run ended ${p.reason}`);
    }
    // A finished run must not keep the process alive (a grace timer left armed holds it for seconds).
    await new Promise((resolve) => setImmediate(resolve));
    const timers = process.getActiveResourcesInfo().filter((resource) => resource === 'Timeout').length;
    if (timers > 0) flags.push(`${timers} timer(s) still armed after the runs ended: they keep the process alive`);
    const rate = (EVENTS / median(pipeline.map((p) => p.ms))) * 1000;
    const pipeRate = (EVENTS / median(baseline.map((b) => b.ms))) * 1000;
    const ratio = median(pipeline.map((p, i) => baseline[i]!.ms / p.ms));
    const growth = Math.max(...pipeline.map((p) => p.growth));
    log(`pipeline: ${int(rate)} events/s (median of ${ROUNDS}); pipe baseline: ${int(pipeRate)} events/s`);
    log(`ratio pipeline/baseline (median per round): ${fixed(ratio)}; max RSS growth ${mib(growth)}`);
    log('(both times include starting node for the child, ~40-60 ms)');
    return {
      targets: [
        { label: 'events/s through startRun (median)', value: rate, op: '>=', limit: TARGET_RATE, unit: '', digits: 0 },
        {
          label: 'RSS growth during the run (max of rounds)',
          value: growth / 2 ** 20,
          op: '<=',
          limit: TARGET_GROWTH / 2 ** 20,
          unit: ' MiB',
          digits: 1,
        },
      ],
      facts: [`pipeline/pipe-baseline ratio ${fixed(ratio)} (pipe alone ${int(pipeRate)} events/s)`],
      flags,
    };
  },
};

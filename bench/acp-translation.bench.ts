import { readFileSync } from 'node:fs';
import { acpController, acpTranslator } from '../src/adapters/protocols/acp/index.ts';
import { processController } from '../src/adapters/protocols/process/process-controller.ts';
import type { LaunchContext, RunIO } from '../src/core/adapter/index.ts';
import { offlineLaunchContext } from '../src/core/adapter/offline-launch-context.ts';
import { autoApprovalChannel } from '../src/core/tools/auto-approval-channel.ts';
import { builtinTools } from '../src/core/tools/builtin-tools.ts';
import { createToolHost } from '../src/core/tools/create-tool-host.ts';
import { type Benchmark, fixed, int, ms, percentile } from './bench-kit.ts';

const streamFile = (name: string) =>
  new URL(`../test/fixtures/streams/acp-fixture/${name}.jsonl`, import.meta.url).pathname;
const REPEAT = 4000;
const TRIPS = 2000;

const ctx: LaunchContext = offlineLaunchContext({ prompt: 'bench', cwd: process.cwd() }, 'bench');

/** The recorded stream repeated, as one text: split and parse it, with and without the translator. */
function translation(text: string): { bareMs: number; acpMs: number; lines: number; drafts: number } {
  const time = (fn: () => number) => {
    const start = performance.now();
    const n = fn();
    return { ms: performance.now() - start, n };
  };
  const bare = time(() => {
    let n = 0;
    for (const line of text.split('\n')) if (line) n += JSON.parse(line) ? 1 : 0;
    return n;
  });
  const acp = time(() => {
    let n = 0;
    const state = acpTranslator.init({ debug: false, request: ctx.request });
    for (const line of text.split('\n')) {
      if (!line) continue;
      n += acpTranslator.translate({ kind: 'json', value: JSON.parse(line) }, state).length;
      // Each recorded turn ends the run; a new run starts with the next copy.
      if (state.terminal) Object.assign(state, acpTranslator.init({ debug: false, request: ctx.request }));
    }
    return n;
  });
  return { bareMs: bare.ms, acpMs: acp.ms, lines: bare.n, drafts: acp.n };
}

/** An in-memory stdio whose writes resolve the waiter of the matching id. */
function memoryIo() {
  const waiters = new Map<unknown, () => void>();
  const io: RunIO = {
    writeLine: async (value) => {
      const id = (value as { id?: unknown }).id;
      waiters.get(id)?.();
      waiters.delete(id);
    },
    emit: () => undefined,
    fail: () => undefined,
    approvals: autoApprovalChannel('approve'),
    tools: createToolHost({
      runId: 'bench',
      workspacePath: process.cwd(),
      tools: builtinTools(),
      policy: { default: 'allow' },
      emit: () => undefined,
      task: { prompt: 'bench' },
    }),
    signal: new AbortController().signal,
  };
  const reply = (id: unknown) => new Promise<void>((resolve) => waiters.set(id, resolve));
  return { io, reply };
}

async function roundTrips(kind: 'acp' | 'process'): Promise<number[]> {
  const { io, reply } = memoryIo();
  const latencies: number[] = [];
  if (kind === 'acp') {
    const controller = acpController(io, ctx);
    for (let i = 0; i < TRIPS; i++) {
      const id = 1000 + i;
      const start = performance.now();
      const answered = reply(id);
      controller.onRecord?.({
        kind: 'json',
        value: {
          jsonrpc: '2.0',
          id,
          method: 'session/request_permission',
          params: {
            sessionId: 's',
            toolCall: { toolCallId: `c${i}`, title: 'read', kind: 'read', name: 'read_task' },
            options: [
              { optionId: 'y', name: 'Allow', kind: 'allow_once' },
              { optionId: 'n', name: 'Reject', kind: 'reject_once' },
            ],
          },
        },
      });
      await answered;
      latencies.push(performance.now() - start);
    }
    await controller.settle?.();
  } else {
    const controller = processController(io, ctx);
    for (let i = 0; i < TRIPS; i++) {
      const id = `c${i}`;
      const start = performance.now();
      const answered = reply(id);
      controller.onEvent?.({
        type: 'tool_call_ready',
        toolCallId: id,
        toolName: 'read_task',
        input: {},
        runId: 'bench',
        agent: 'bench',
        timestamp: Date.now(),
      });
      await answered;
      latencies.push(performance.now() - start);
    }
  }
  return latencies;
}

export const benchmark: Benchmark = {
  name: 'acp-translation',
  title: 'ACP translation vs bare split + JSON.parse; an ACP permission round trip vs the Process relay',
  async run(log) {
    const recorded = `${readFileSync(streamFile('plain'), 'utf8')}${readFileSync(streamFile('permission'), 'utf8')}`;
    const text = recorded.repeat(REPEAT);
    translation(recorded.repeat(200)); // warm up
    const t = translation(text);
    const ratio = t.acpMs / t.bareMs;
    log(
      `translation: ${int(t.lines)} lines, ${int(t.drafts)} drafts; bare ${ms(t.bareMs)}, acp ${ms(t.acpMs)}; ratio ${fixed(ratio)}×`,
    );
    await roundTrips('acp');
    await roundTrips('process');
    const acp = await roundTrips('acp');
    const relay = await roundTrips('process');
    const p50 = (v: number[]) => percentile(v, 50);
    const tripRatio = p50(acp) / p50(relay);
    log(
      `round trip p50: acp permission ${ms(p50(acp))} (p99 ${ms(percentile(acp, 99))}), process relay ${ms(p50(relay))} (p99 ${ms(percentile(relay, 99))}); ratio ${fixed(tripRatio)}×`,
    );
    return {
      targets: [
        { label: 'ACP translation cost vs bare parse', value: ratio, op: '<=', limit: 4, unit: '×', digits: 2 },
      ],
      facts: [
        `acp translation ${fixed(ratio)}× bare parse`,
        `acp permission round trip ${fixed(tripRatio)}× process relay (p50)`,
      ],
      flags: [],
    };
  },
};

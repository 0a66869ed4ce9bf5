import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { httpAdapter } from '../src/adapters/protocols/http/http-adapter.ts';
import { processAdapter } from '../src/adapters/protocols/process/process-adapter.ts';
import type { EventDraft } from '../src/core/events/index.ts';
import { startRun } from '../src/core/run/start-run.ts';
import { builtinTools } from '../src/core/tools/builtin-tools.ts';
import { createToolHost } from '../src/core/tools/create-tool-host.ts';
import { startMcpServer } from '../src/core/tools/mcp/start-mcp-server.ts';
import { startRemoteServer } from '../src/remote/start-remote-server.ts';
import { type Benchmark, fixed, fixtureBin, int, ms, percentile } from './bench-kit.ts';

const CALLS = 2000;
const WARMUP = 200;
const ROUNDS = 2;

interface Sample {
  latenciesMs: number[];
  totalMs: number;
  failures: number;
  firstError?: string;
}

const cwd = process.cwd();
const hostOptions = (runId: string, emit: (draft: EventDraft) => void) => ({
  runId,
  workspacePath: cwd,
  tools: builtinTools(),
  policy: { default: 'allow' as const },
  emit,
  task: { prompt: 'benchmark task', repository: 'octo/bench' },
});

/** (a) The agent's `tool_call` lines through the whole run: pipeline → controller → tool host → stdin. */
async function relay(): Promise<Sample> {
  const adapter = processAdapter('tool-caller', {
    binary: process.execPath,
    args: [fixtureBin('tool-caller.mjs'), String(CALLS), 'read_task', String(WARMUP)],
  });
  const handle = startRun({
    adapter,
    request: { prompt: 'benchmark task', cwd },
    tools: ({ runId, emit }) => createToolHost(hostOptions(runId, emit)),
    graceMs: 1000,
  });
  let results = 0;
  for await (const event of handle.events) if (event.type === 'tool_result') results++;
  const end = await handle.result;
  const output = end.output as Partial<Sample> | undefined;
  if (end.reason !== 'completed' || !output?.latenciesMs) {
    throw new Error(`the relay run ended ${end.reason}: ${end.message ?? '(no message)'}`);
  }
  if (results !== CALLS + WARMUP) throw new Error(`${results} tool_result events for ${CALLS + WARMUP} calls`);
  return output as Sample;
}

/**
 * (d) The same agent on a remote host (`agent-mux serve` in this process, on 127.0.0.1): each
 * call goes out as a `tool_call` SSE record, is run by the caller's tool host and comes back as a
 * `POST …/input`, through the ca-http-v1 caller-tools extension (issue 30).
 */
async function remote(): Promise<Sample> {
  const adapter = processAdapter('tool-caller', {
    binary: process.execPath,
    args: [fixtureBin('tool-caller.mjs'), String(CALLS), 'read_task', String(WARMUP)],
  });
  const server = await startRemoteServer({ adapter, auth: { type: 'none' }, graceMs: 1000 });
  try {
    const caller = httpAdapter('remote', {
      type: 'http',
      baseUrl: server.url,
      auth: { type: 'none' },
      protocol: 'ca-http-v1',
      maxConcurrentSessions: 1,
    });
    const handle = startRun({
      adapter: caller,
      request: { prompt: 'benchmark task', cwd },
      tools: ({ runId, emit }) => createToolHost(hostOptions(runId, emit)),
      graceMs: 1000,
    });
    const end = await handle.result;
    const output = end.output as Partial<Sample> | undefined;
    if (end.reason !== 'completed' || !output?.latenciesMs) {
      throw new Error(`the remote run ended ${end.reason}: ${end.message ?? '(no message)'}`);
    }
    return output as Sample;
  } finally {
    await server.close();
  }
}

/** (b) The same host behind the MCP server, called by the SDK's client over streamable HTTP (same process). */
async function mcp(): Promise<Sample> {
  const host = createToolHost(hostOptions('bench-mcp', () => undefined));
  const server = await startMcpServer({ host });
  const client = new Client({ name: 'bench', version: '0.0.0' });
  try {
    await client.connect(new StreamableHTTPClientTransport(new URL(server.url)));
    const sample: Sample = { latenciesMs: [], totalMs: 0, failures: 0 };
    let measuredFrom = performance.now();
    for (let i = 0; i < WARMUP + CALLS; i++) {
      if (i === WARMUP) measuredFrom = performance.now();
      const sent = performance.now();
      const result = await client.callTool({ name: 'read_task', arguments: {} });
      if (i >= WARMUP) sample.latenciesMs.push(performance.now() - sent);
      if (result.isError) {
        sample.failures++;
        sample.firstError ??= JSON.stringify(result.content);
      }
    }
    sample.totalMs = performance.now() - measuredFrom;
    return sample;
  } finally {
    await client.close().catch(() => undefined);
    await server.close();
  }
}

/** (c) The floor: one line to a child and back, nothing in between. */
async function echo(): Promise<Sample> {
  const child = spawn(process.execPath, [fixtureBin('echo-lines.mjs')], { stdio: ['pipe', 'pipe', 'inherit'] });
  const lines = createInterface({ input: child.stdout, crlfDelay: Number.POSITIVE_INFINITY });
  let waiting: ((line: string) => void) | undefined;
  lines.on('line', (line) => {
    const resolve = waiting;
    waiting = undefined;
    resolve?.(line);
  });
  const sample: Sample = { latenciesMs: [], totalMs: 0, failures: 0 };
  let measuredFrom = performance.now();
  for (let i = 0; i < WARMUP + CALLS; i++) {
    if (i === WARMUP) measuredFrom = performance.now();
    const sent = performance.now();
    const ping = `{"type":"ping","id":"c${i}"}`;
    const pong = await new Promise<string>((resolve) => {
      waiting = resolve;
      child.stdin.write(`${ping}\n`);
    });
    if (i >= WARMUP) sample.latenciesMs.push(performance.now() - sent);
    if (pong !== ping) sample.failures++;
  }
  sample.totalMs = performance.now() - measuredFrom;
  child.stdin.end();
  await new Promise((resolve) => child.once('close', resolve));
  return sample;
}

const modes = { relay, mcp, echo, remote } as const;
type Mode = keyof typeof modes;
const labels: Record<Mode, string> = {
  relay: '(a) Process relay (startRun + tool host)',
  mcp: '(b) MCP server (SDK client, HTTP)',
  echo: '(c) bare echo child (ping/pong)',
  remote: '(d) remote relay (serve, ca-http-v1, loopback)',
};

export const benchmark: Benchmark = {
  name: 'tool-roundtrip',
  title: `${int(CALLS)} sequential read_task calls: Process relay, MCP server, bare stdin/stdout echo, remote relay over ca-http-v1`,
  async run(log) {
    const samples: Record<Mode, Sample[]> = { relay: [], mcp: [], echo: [], remote: [] };
    for (let round = 0; round < ROUNDS; round++) {
      for (const mode of Object.keys(modes) as Mode[]) samples[mode].push(await modes[mode]());
    }
    const flags: string[] = [];
    const stats = {} as Record<Mode, { rate: number; p50: number; p99: number }>;
    log(`${ROUNDS} rounds of ${int(CALLS)} calls each (after ${WARMUP} warm-up calls), interleaved a, b, c`);
    for (const mode of Object.keys(modes) as Mode[]) {
      const list = samples[mode];
      const latencies = list.flatMap((s) => s.latenciesMs);
      const totalMs = list.reduce((sum, s) => sum + s.totalMs, 0);
      const failures = list.reduce((sum, s) => sum + s.failures, 0);
      const entry = {
        rate: (latencies.length / totalMs) * 1000,
        p50: percentile(latencies, 50),
        p99: percentile(latencies, 99),
      };
      stats[mode] = entry;
      log(
        `${labels[mode].padEnd(42)} ${int(entry.rate).padStart(7)} calls/s  p50 ${ms(entry.p50).padStart(8)}  p99 ${ms(entry.p99).padStart(8)}  max ${ms(Math.max(...latencies))}`,
      );
      if (failures > 0) flags.push(`${mode}: ${failures} failed calls (${list.find((s) => s.firstError)?.firstError})`);
      if (entry.p99 > 20 * entry.p50) flags.push(`${mode}: p99 is ${fixed(entry.p99 / entry.p50, 0)}× p50`);
    }
    const relayRatio = stats.relay.rate / stats.echo.rate;
    const mcpRatio = stats.mcp.rate / stats.echo.rate;
    const remoteRatio = stats.remote.rate / stats.relay.rate;
    log(
      `ratios (calls/s): a/c ${fixed(relayRatio)}  b/c ${fixed(mcpRatio)}  a/b ${fixed(stats.relay.rate / stats.mcp.rate)}  d/a ${fixed(remoteRatio)}`,
    );
    log(
      `a relayed call to the caller costs ${ms(stats.remote.p50)} at p50 beside ${ms(stats.relay.p50)} for a local one`,
    );
    log('(a) is timed inside the agent process; (b) and (c) in this process; (b) has client and server on one loop');
    if (relayRatio < 0.1) flags.push(`relay is ${fixed(1 / relayRatio, 0)}× slower than a bare echo round trip`);
    if (mcpRatio < 0.02) flags.push(`MCP is ${fixed(1 / mcpRatio, 0)}× slower than a bare echo round trip`);
    return {
      targets: [],
      facts: [
        ...(Object.keys(modes) as Mode[]).map(
          (mode) =>
            `${labels[mode]}: ${int(stats[mode].rate)} calls/s, p50 ${ms(stats[mode].p50)}, p99 ${ms(stats[mode].p99)}`,
        ),
        `ratios (calls/s): a/c ${fixed(relayRatio)}, b/c ${fixed(mcpRatio)}, d/a (remote over local) ${fixed(remoteRatio)}`,
      ],
      flags,
    };
  },
};

import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { demoAdapter } from '../../../src/adapters/agents/demo/demo-adapter.ts';
import { processAdapter } from '../../../src/adapters/protocols/process/process-adapter.ts';
import type { Adapter } from '../../../src/core/adapter/index.ts';
import type { AgentEvent } from '../../../src/core/events/index.ts';
import type { RunOptions } from '../../../src/core/run/run-options.ts';
import { startRun } from '../../../src/core/run/start-run.ts';
import { autoApprovalChannel } from '../../../src/core/tools/auto-approval-channel.ts';
import { builtinTools } from '../../../src/core/tools/builtin-tools.ts';
import { createToolHost } from '../../../src/core/tools/create-tool-host.ts';
import { defaultPolicy } from '../../../src/core/tools/default-policy.ts';
import { expectWellFormedStream } from '../../contract/adapter-contract.ts';
import { collectRun } from '../../support/collect-run.ts';
import { fixtureBin, withProgram } from '../../support/with-program.ts';

const node = process.execPath;
const referenceAgent = new URL('../../../examples/process-agent.mjs', import.meta.url).pathname;
const workspace = () => mkdtempSync(join(tmpdir(), 'agent-mux-run-'));

function toolsFor(cwd: string, prompt: string, approve: 'approve' | 'deny', allowWrites = false): RunOptions['tools'] {
  return ({ runId, emit }) =>
    createToolHost({
      runId,
      workspacePath: cwd,
      tools: builtinTools(),
      policy: allowWrites ? { default: 'allow' } : defaultPolicy,
      approvals: autoApprovalChannel(approve),
      emit,
      task: { prompt },
    });
}

const ofType = <T extends AgentEvent['type']>(events: AgentEvent[], type: T) =>
  events.filter((e): e is Extract<AgentEvent, { type: T }> => e.type === type);

describe('startRun with the Process protocol', () => {
  it('relays tool calls through the tool host and writes results back to the agent', async () => {
    const cwd = workspace();
    const { events, end } = await collectRun(
      startRun({
        adapter: processAdapter('reference', { binary: node, args: [referenceAgent] }),
        request: { prompt: 'hello there', cwd },
        tools: toolsFor(cwd, 'hello there', 'approve'),
        approvals: autoApprovalChannel('approve'),
      }),
    );
    expectWellFormedStream(events, 'reference');
    expect(end.reason).toBe('completed');
    expect(end.output).toEqual({ wrote: true });
    expect(readFileSync(join(cwd, 'hello.txt'), 'utf8')).toBe('hello there\n');
    expect(ofType(events, 'approval_granted')).toHaveLength(1);
    expect(ofType(events, 'tool_result').map((e) => e.isError)).toEqual([false, false]);
  });

  it('hands a denial to the agent as a tool error, and the agent carries on', async () => {
    const cwd = workspace();
    const { events, end } = await collectRun(
      startRun({
        adapter: processAdapter('reference', { binary: node, args: [referenceAgent] }),
        request: { prompt: 'hello', cwd },
        tools: toolsFor(cwd, 'hello', 'deny'),
      }),
    );
    expect(end.reason).toBe('completed');
    expect(end.output).toEqual({ wrote: false });
    const denied = ofType(events, 'tool_result').find((e) => e.toolName === 'write_file');
    expect(denied?.isError).toBe(true);
    expect(ofType(events, 'comment')[0]?.text).toMatch(/^Could not write hello.txt: .*denied/);
  });

  it('sends budget updates and shuts the agent down when the budget is spent', async () => {
    const cwd = workspace();
    const { events, end } = await collectRun(
      startRun({
        adapter: processAdapter('reference', {
          binary: node,
          args: [referenceAgent],
          env: { REFERENCE_AGENT_STEPS: '50' },
        }),
        request: { prompt: 'long task', cwd },
        tools: toolsFor(cwd, 'long task', 'approve'),
        budget: { tokens: 6000 },
        graceMs: 2000,
      }),
    );
    expectWellFormedStream(events, 'reference');
    expect(end.reason).toBe('budget_exceeded');
    expect(ofType(events, 'progress').some((e) => e.summary.startsWith('budget left:'))).toBe(true);
    expect(ofType(events, 'error').some((e) => e.code === 'budget_exceeded')).toBe(true);
    // The agent saw the shutdown and answered with `failed` before exiting on its own.
    expect(
      ofType(events, 'error').some((e) => e.code === 'agent_error' && e.message.startsWith('budget_exceeded')),
    ).toBe(true);
    expect(end.signal).toBeNull();
    expect(end.totals.inputTokens + end.totals.outputTokens).toBeGreaterThanOrEqual(6000);
  });

  it('tells the agent its lease expired, and ends the run failed', async () => {
    const cwd = workspace();
    const handle = startRun({
      adapter: processAdapter('reference', {
        binary: node,
        args: [referenceAgent],
        env: { REFERENCE_AGENT_STEPS: '500' },
      }),
      request: { prompt: 'long task', cwd },
      tools: toolsFor(cwd, 'long task', 'approve'),
      graceMs: 2000,
    });
    let expired = false;
    handle.events[Symbol.asyncIterator](); // start buffering now: the generator below reads lazily
    const { events, end } = await collectRun({
      ...handle,
      events: {
        async *[Symbol.asyncIterator]() {
          for await (const event of handle.events) {
            if (!expired && event.type === 'progress' && event.summary === 'step 3') {
              expired = true;
              handle.expireLease();
            }
            yield event;
          }
        },
      },
    });
    expect(end).toMatchObject({ reason: 'failed', message: 'lease expired' });
    expect(ofType(events, 'error').some((e) => e.code === 'lease_expired')).toBe(true);
    // The agent heard `shutdown` with the reason and answered before exiting on its own.
    expect(ofType(events, 'error').some((e) => e.code === 'agent_error' && e.message.startsWith('lease_expired'))).toBe(
      true,
    );
    expect(end.signal).toBeNull();
  });

  it('stops an agent that never reads its stdin once the unread bytes pass the limit', async () => {
    const cwd = workspace();
    const prompt = 'p'.repeat(16 * 1024);
    const { events, end } = await collectRun(
      startRun({
        adapter: processAdapter('blocked', { binary: node, args: [fixtureBin('big-task-reader.mjs')] }),
        request: { prompt, cwd },
        tools: toolsFor(cwd, prompt, 'approve'),
        maxPendingStdinBytes: 256 * 1024,
        graceMs: 300,
        timeoutMs: 20_000,
      }),
    );
    expectWellFormedStream(events, 'blocked');
    expect(end.reason).toBe('failed');
    expect(end.message).toMatch(/has not read \d+ bytes written to its stdin/);
    expect(ofType(events, 'error').some((e) => e.code === 'stdin_blocked')).toBe(true);
  });

  it('retries a crashed run per the policy and reports every attempt', async () => {
    const { events, end } = await collectRun(
      startRun({
        adapter: withProgram(processAdapter('p', { binary: 'x' }), node, [fixtureBin('crash.mjs'), '2']),
        request: { prompt: 'x', cwd: workspace() },
        retry: { attempts: 3, backoffMs: 10, maxBackoffMs: 20, jitter: 0, retryOn: ['crashed'] },
      }),
    );
    expectWellFormedStream(events, 'p');
    expect(end).toMatchObject({ reason: 'crashed', attempts: 3, exitCode: 2 });
    expect(ofType(events, 'crash')).toHaveLength(3);
    expect(ofType(events, 'error').filter((e) => e.recoverable && e.message.includes('retrying'))).toHaveLength(2);
  });

  it('fails before spawning when a template variable has no value', async () => {
    const { events, end } = await collectRun(
      startRun({
        adapter: processAdapter('p', { binary: node, args: ['-e', '0', '${AGENT_MUX_TEST_UNSET_VARIABLE}'] }),
        request: { prompt: 'x', cwd: workspace() },
        env: {},
      }),
    );
    expect(end.reason).toBe('failed');
    expect(end.message).toContain('${AGENT_MUX_TEST_UNSET_VARIABLE}');
    expect(ofType(events, 'error')[0]?.code).toBe('spawn_failed');
  });

  it('expands templates in arguments and gives the agent its run variables', async () => {
    const cwd = workspace();
    const script = join(cwd, 'echo-env.mjs');
    writeFileSync(
      script,
      "process.stdout.write(JSON.stringify({type:'complete',output:{argv:process.argv.slice(2),run:process.env.CA_RUN_ID,lease:process.env.CA_LEASE_TOKEN,fence:process.env.CA_FENCING_TOKEN,mcp:process.env.MCP_SERVER_URL}})+'\\n')",
    );
    const { end } = await collectRun(
      startRun({
        adapter: processAdapter('p', { binary: node, args: [script, '{{workspacePath}}', '{{runId}}', '${GREETING}'] }),
        request: { prompt: 'x', cwd },
        runId: 'run_fixed',
        leaseToken: 'lease_abc',
        leaseEpoch: 17,
        mcpUrl: 'http://127.0.0.1:4200/mcp',
        env: { ...process.env, GREETING: 'hi' },
      }),
    );
    expect(end.output).toEqual({
      argv: [cwd, 'run_fixed', 'hi'],
      run: 'run_fixed',
      lease: 'lease_abc',
      fence: '17',
      mcp: 'http://127.0.0.1:4200/mcp',
    });
  });

  it('runs a program on a pseudo-terminal and strips VT sequences before parsing', async () => {
    const base = processAdapter('pty', { binary: node });
    const launch = base.launch;
    if (launch.kind !== 'process') throw new Error('unreachable');
    const adapter: Adapter = {
      ...base,
      launch: {
        ...launch,
        plan: async (ctx) => ({ ...(await launch.plan(ctx)), args: [fixtureBin('color-json.mjs')], pty: true }),
      },
    };
    const { events, end } = await collectRun(startRun({ adapter, request: { prompt: 'x', cwd: workspace() } }));
    expectWellFormedStream(events, 'pty');
    expect(ofType(events, 'progress').map((e) => e.summary)).toEqual(['green step', 'after cursor moves']);
    expect(ofType(events, 'error')).toEqual([]);
    expect(end).toMatchObject({ reason: 'completed', output: { tty: true } });
  });

  it('delivers every event in order to a slow consumer (backpressure, nothing lost)', async () => {
    const handle = startRun({
      adapter: withProgram(processAdapter('flood', { binary: 'x' }), node, [fixtureBin('flood.mjs'), '50000']),
      request: { prompt: 'x', cwd: workspace() },
    });
    let expected = 0;
    let count = 0;
    for await (const event of handle.events) {
      if (event.type === 'progress') {
        expect(event.summary).toBe(`step ${expected++}`);
        if (expected % 5000 === 0) await new Promise((r) => setTimeout(r, 20));
      }
      count++;
    }
    expect(expected).toBe(50_000);
    expect(count).toBe(50_001);
    expect((await handle.result).reason).toBe('completed');
  });
});

describe('startRun with a session adapter (demo)', () => {
  it('runs the scripted demo: tool calls, an approval, a file edit and a cost', async () => {
    const cwd = workspace();
    const { events, end } = await collectRun(
      startRun({
        adapter: demoAdapter({ stepDelayMs: 1 }),
        request: { prompt: 'fix the typo', cwd },
        tools: toolsFor(cwd, 'fix the typo', 'approve'),
      }),
    );
    expectWellFormedStream(events, 'demo');
    expect(end).toMatchObject({ reason: 'completed', output: { changedFiles: ['README.md'] } });
    expect(readFileSync(join(cwd, 'README.md'), 'utf8')).toContain('This project shows');
    expect(ofType(events, 'approval_request')).toHaveLength(1);
    expect(end.totals).toMatchObject({ inputTokens: 1200, outputTokens: 180, usd: 0.0042 });
  });

  it('aborts a session and ends with one run_end', async () => {
    const handle = startRun({
      adapter: demoAdapter({ stepDelayMs: 200 }),
      request: { prompt: 'x', cwd: workspace() },
      graceMs: 500,
    });
    setTimeout(() => handle.abort('enough'), 100);
    const { events, end } = await collectRun(handle);
    expectWellFormedStream(events, 'demo');
    expect(end).toMatchObject({ reason: 'aborted', message: 'enough' });
  });

  it('marks a run failed when the agent calls mark_failed', async () => {
    const cwd = workspace();
    const script = join(cwd, 'give-up.mjs');
    writeFileSync(
      script,
      `import { createInterface } from 'node:readline';
       process.stdout.write(JSON.stringify({type:'tool_call',id:'1',tool:'mark_failed',args:{reason:'cannot_reproduce',details:'no such test'}})+'\\n');
       createInterface({input:process.stdin}).on('line', () => process.exit(0));`,
    );
    const { end } = await collectRun(
      startRun({
        adapter: processAdapter('p', { binary: node, args: [script] }),
        request: { prompt: 'x', cwd },
        tools: ({ runId, emit }) =>
          createToolHost({
            runId,
            workspacePath: cwd,
            tools: builtinTools(),
            policy: { default: 'allow' },
            emit,
            task: { prompt: 'x' },
          }),
      }),
    );
    expect(end).toMatchObject({ reason: 'failed', message: 'cannot_reproduce: no such test' });
  });
});

describe('startRun with a fence whose program is missing', () => {
  it('fails naming bubblewrap, not the agent (the agent is installed)', async () => {
    const cwd = workspace();
    const { events, end } = await collectRun(
      startRun({
        adapter: processAdapter('reference', { binary: node, args: [referenceAgent] }),
        request: { prompt: 'hello there', cwd },
        fence: { kind: 'processes', bwrap: join(cwd, 'no-such-bwrap') },
      }),
    );
    expect(end.reason).toBe('failed');
    expect(end.message).toMatch(/fence needs .*no-such-bwrap \(bubblewrap\), which is not installed/);
    expect(end.message).not.toMatch(/node.* is not installed/);
    expect(ofType(events, 'error').map((e) => e.code)).toContain('spawn_failed');
  });

  it('a missing agent program inside the fence is "not installed", not bwrap’s execvp failure', async () => {
    const cwd = workspace();
    const { events, end } = await collectRun(
      startRun({
        adapter: processAdapter('reference', { binary: 'no-such-agent-program', args: [] }),
        request: { prompt: 'hello there', cwd },
        env: { PATH: cwd },
        fence: { kind: 'processes', bwrap: node },
      }),
    );
    expect(end.reason).toBe('crashed');
    expect(end.message).toBe('no-such-agent-program is not installed or not on PATH');
    expect(ofType(events, 'error').map((e) => e.code)).toEqual(['program_missing']);
  });
});

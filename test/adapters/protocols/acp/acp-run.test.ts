import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type AcpAdapterExtras, acpAdapter } from '../../../../src/adapters/protocols/acp/index.ts';
import type { AgentEvent } from '../../../../src/core/events/index.ts';
import type { RunOptions } from '../../../../src/core/run/run-options.ts';
import { startRun } from '../../../../src/core/run/start-run.ts';
import type { ApprovalDecision } from '../../../../src/core/tools/approval-channel.ts';
import { builtinTools } from '../../../../src/core/tools/builtin-tools.ts';
import { createToolHost } from '../../../../src/core/tools/create-tool-host.ts';
import { createMemoryApprovalChannel } from '../../../../src/core/tools/memory-approval-channel.ts';
import { expectWellFormedStream } from '../../../contract/adapter-contract.ts';
import { collectRun, processAlive } from '../../../support/collect-run.ts';
import { fixtureBin } from '../../../support/with-program.ts';

const node = process.execPath;
const workspace = () => mkdtempSync(join(tmpdir(), 'agent-mux-acp-'));
const agentFor = (scenario: string, extras: AcpAdapterExtras = {}) =>
  acpAdapter('acp-fixture', { binary: node, args: [fixtureBin('acp-agent.mjs'), scenario] }, extras);
const ofType = <T extends AgentEvent['type']>(events: AgentEvent[], type: T) =>
  events.filter((e): e is Extract<AgentEvent, { type: T }> => e.type === type);
const textOf = (events: AgentEvent[]) =>
  ofType(events, 'text_delta')
    .map((e) => e.delta)
    .join('');

function run(
  scenario: string,
  options: Partial<RunOptions> & { prompt?: string; cwd?: string; extras?: AcpAdapterExtras } = {},
) {
  const cwd = options.cwd ?? workspace();
  const { prompt = 'hi', extras, ...rest } = options;
  return startRun({
    adapter: agentFor(scenario, extras),
    request: { prompt, cwd, ...(rest.request ?? {}) },
    terminalGraceMs: 200,
    graceMs: 1000,
    timeoutMs: 20_000,
    mcp: 'off',
    ...rest,
  });
}

/** A tool host whose policy allows the workspace file tools, and a channel that answers `decision`. */
function approving(cwd: string, decision: ApprovalDecision | 'never') {
  const approvals = createMemoryApprovalChannel({
    onRequest: (request) => {
      if (decision !== 'never') queueMicrotask(() => approvals.resolve(request.approvalId, decision));
    },
  });
  const tools: RunOptions['tools'] = ({ runId, emit }) =>
    createToolHost({
      runId,
      workspacePath: cwd,
      tools: builtinTools(),
      policy: { default: 'allow' },
      approvals,
      emit,
      task: { prompt: 'hi' },
    });
  return { approvals, tools };
}

describe('acp adapter over the core process path (fixture agent)', () => {
  it('runs a plain turn: session, thoughts, text, plan, cost; the prompt response ends the run', async () => {
    const started = Date.now();
    const { events, end } = await collectRun(run('plain', { prompt: 'ping' }));
    expectWellFormedStream(events, 'acp-fixture');
    expect(end).toMatchObject({ reason: 'completed', sessionId: 'fixture-plain' });
    expect(ofType(events, 'session_start')[0]?.sessionId).toBe('fixture-plain');
    expect(textOf(events)).toBe('Hello you said: ping');
    expect(ofType(events, 'thinking_delta').map((e) => e.delta)).toEqual(['thinking about it']);
    expect(ofType(events, 'progress')[0]?.summary).toBe('plan:\n[in_progress] answer the question');
    expect(ofType(events, 'cost')[0]).toMatchObject({ usd: 0.0123, cumulative: true });
    expect(ofType(events, 'turn_end')[0]?.stopReason).toBe('end_turn');
    // The fixture stays alive after its turn: the run ended on the prompt response, not on EOF.
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it('routes a permission request to the approval channel; allowed, the write goes through the tool host', async () => {
    const cwd = workspace();
    const { tools, approvals } = approving(cwd, { kind: 'approve', scope: 'once', by: 'octocat' });
    const { events, end } = await collectRun(run('permission', { cwd, tools, approvals }));
    expectWellFormedStream(events, 'acp-fixture');
    expect(end.reason).toBe('completed');
    expect(ofType(events, 'approval_request')[0]).toMatchObject({
      toolName: 'edit',
      toolCallId: 'call-1',
      input: { title: 'Write hello.txt', kind: 'edit', rawInput: { path: 'hello.txt', content: 'hello' } },
    });
    expect(ofType(events, 'approval_granted')[0]).toMatchObject({ scope: 'once', by: 'octocat' });
    expect(readFileSync(join(cwd, 'hello.txt'), 'utf8')).toBe('hello\nworld\n');
    const fsCalls = ofType(events, 'tool_call_start').filter((e) => e.toolCallId.startsWith('acp-fs-'));
    expect(fsCalls.map((e) => e.toolName)).toEqual(['write_file', 'read_file']);
    expect(ofType(events, 'file_output')[0]?.fileName).toBe('hello.txt');
    expect(textOf(events)).toBe('wrote it (yes), line 2: world');
    const result = ofType(events, 'tool_result').find((e) => e.toolCallId === 'call-1');
    expect(result).toMatchObject({ isError: false, toolName: 'edit' });
  });

  it('answers the reject option when the approval is denied, and nothing is written', async () => {
    const cwd = workspace();
    const { tools, approvals } = approving(cwd, { kind: 'deny', reason: 'not today' });
    const { events, end } = await collectRun(run('permission', { cwd, tools, approvals }));
    expectWellFormedStream(events, 'acp-fixture');
    expect(end.reason).toBe('completed');
    expect(ofType(events, 'approval_denied')[0]?.reason).toBe('not today');
    expect(existsSync(join(cwd, 'hello.txt'))).toBe(false);
    expect(ofType(events, 'tool_result').find((e) => e.toolCallId === 'call-1')?.isError).toBe(true);
    expect(textOf(events)).toBe('I was not allowed.');
  });

  it('applies the policy before asking: a denying rule rejects without an approval request', async () => {
    const cwd = workspace();
    const { tools, approvals } = approving(cwd, { kind: 'approve', scope: 'once' });
    const policy = {
      default: 'ask' as const,
      rules: [{ tool: 'edit', decision: 'deny' as const, reason: 'no edits' }],
    };
    const { events } = await collectRun(run('permission', { cwd, tools, approvals, policy }));
    expect(ofType(events, 'approval_request')).toHaveLength(0);
    expect(textOf(events)).toBe('I was not allowed.');
  });

  it('a run aborted while a permission request is open ends aborted and leaves no process', async () => {
    const cwd = workspace();
    const { tools, approvals } = approving(cwd, 'never');
    const handle = run('cancel-wait', { cwd, tools, approvals });
    const events: AgentEvent[] = [];
    for await (const event of handle.events) {
      events.push(event);
      if (event.type === 'approval_request') handle.abort('user cancelled');
    }
    const end = await handle.result;
    expect(end.reason).toBe('aborted');
    expect(ofType(events, 'approval_denied')[0]?.reason).toMatch(/cancelled|aborted/);
    expectWellFormedStream(events, 'acp-fixture');
  });

  it('an agent that never answers initialize fails the run with a reason, before any inactivity limit', async () => {
    const { events, end } = await collectRun(
      run('no-init', { inactivityTimeoutMs: 20_000, extras: { initializeTimeoutMs: 400 } }),
    );
    expect(end.reason).toBe('failed');
    expect(end.message).toMatch(/did not answer ACP initialize within 400 ms/);
    const errors = ofType(events, 'error');
    expect(errors.map((e) => [e.code, e.recoverable])).toEqual([['agent_error', false]]);
    expect(errors[0]?.message).toMatch(/ACP mode/);
    expectWellFormedStream(events, 'acp-fixture');
  });

  it('survives garbage lines: malformed_record errors, the turn still completes', async () => {
    const { events, end } = await collectRun(run('garbage'));
    expectWellFormedStream(events, 'acp-fixture');
    expect(end.reason).toBe('completed');
    expect(ofType(events, 'error').filter((e) => e.code === 'malformed_record').length).toBeGreaterThanOrEqual(3);
    expect(textOf(events)).toBe('Hello you said: hi');
  });

  it('an agent that exits mid-turn is a crash with its stderr tail', async () => {
    const { events, end } = await collectRun(run('exit-mid'));
    expectWellFormedStream(events, 'acp-fixture');
    expect(end.reason).toBe('crashed');
    expect(ofType(events, 'crash')[0]).toMatchObject({
      exitCode: 3,
      stderr: expect.stringContaining('fatal mid-turn'),
    });
  });

  it('abort kills the whole process group, a grandchild that ignores SIGTERM included', async () => {
    const handle = run('fork', { graceMs: 300 });
    let grandchild = 0;
    for await (const event of handle.events) {
      const match = event.type === 'log' ? /grandchild (\d+)/.exec(event.line) : null;
      if (match) {
        grandchild = Number(match[1]);
        handle.abort();
      }
    }
    expect((await handle.result).reason).toBe('aborted');
    expect(grandchild).toBeGreaterThan(0);
    expect(processAlive(grandchild)).toBe(false);
  });

  it('resumes with session/load: the replayed history is not reported again', async () => {
    const { events, end } = await collectRun(
      run('load', { request: { prompt: 'again', cwd: workspace(), resumeSessionId: 'old-7' } }),
    );
    expectWellFormedStream(events, 'acp-fixture');
    expect(end).toMatchObject({ reason: 'completed', sessionId: 'old-7' });
    expect(ofType(events, 'session_resume')[0]?.sessionId).toBe('old-7');
    expect(textOf(events)).toBe('Hello you said: again');
  });

  it('starts a new session, and says so, when the agent cannot load one', async () => {
    const { events, end } = await collectRun(
      run('plain', { request: { prompt: 'x', cwd: workspace(), resumeSessionId: 'old-7' } }),
    );
    expect(end).toMatchObject({ reason: 'completed', sessionId: 'fixture-plain' });
    expect(ofType(events, 'error').some((e) => e.recoverable && e.message.includes('cannot load sessions'))).toBe(true);
  });

  it('reports 401 and 429 prompt errors as auth and rate-limit errors that fail the run', async () => {
    const auth = await collectRun(run('error-401'));
    expect(auth.end.reason).toBe('failed');
    expect(ofType(auth.events, 'auth_error')[0]?.message).toContain('401');
    const limited = await collectRun(run('error-429'));
    expect(limited.end.reason).toBe('failed');
    expect(ofType(limited.events, 'rate_limit_error')[0]?.message).toContain('429');
  });

  it("passes the run's MCP server over http (with its token) when the agent takes http MCP", async () => {
    const { events } = await collectRun(run('mcp', { mcp: 'auto', mcpUrl: 'http://127.0.0.1:9/mcp' }));
    expect(JSON.parse(textOf(events))).toEqual([
      { type: 'http', name: 'agent-mux', url: 'http://127.0.0.1:9/mcp', headers: [] },
    ]);
  });
});

describe('steering an ACP agent (issue 37.1)', () => {
  it('a message during the turn goes as the next session/prompt when it ends, and the run ends after that turn', async () => {
    let outcome: unknown;
    const handle = run('slow', {
      prompt: 'first',
      onEvent: (event) => {
        if (event.type === 'thinking_delta' && outcome === undefined) {
          outcome = handle.steer({ text: 'second thoughts', from: '@bob' });
        }
      },
    });
    const { events, end } = await collectRun(handle);
    expect(end.reason, end.message).toBe('completed');
    expect(outcome).toEqual({ kind: 'delivered' });
    expect(textOf(events)).toBe('Hello you said: firstHello you said: second thoughts');
    const kinds = events.map((e) => (e.type === 'notice' ? e.code : e.type));
    expect(kinds.filter((k) => k === 'turn_end')).toHaveLength(2);
    expect(kinds.indexOf('steered')).toBeGreaterThan(kinds.indexOf('turn_end'));
    expect(handle.steer({ text: 'too late' })).toMatchObject({ kind: 'queued' });
  });

  it('without a message the run ends at its one turn', async () => {
    const { events, end } = await collectRun(run('slow', { prompt: 'only' }));
    expect(end.reason).toBe('completed');
    expect(events.filter((e) => e.type === 'turn_end')).toHaveLength(1);
  });
});

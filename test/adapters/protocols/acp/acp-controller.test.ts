import { describe, expect, it } from 'vitest';
import type { AcpSessionLog } from '../../../../src/adapters/protocols/acp/acp-session-log.ts';
import { acpController, pickOption } from '../../../../src/adapters/protocols/acp/index.ts';
import type { LaunchContext, RunIO } from '../../../../src/core/adapter/index.ts';
import type { EventDraft } from '../../../../src/core/events/index.ts';
import { createMemoryApprovalChannel } from '../../../../src/core/tools/memory-approval-channel.ts';

type Json = Record<string, unknown>;

/** A controller wired to in-memory stdio: what it writes, and a way to answer as the agent. */
function harness(
  options: {
    approve?: 'always' | 'never';
    loadSession?: boolean;
    resume?: string;
    initializeTimeoutMs?: number;
    sessionLog?: AcpSessionLog;
  } = {},
) {
  const written: Json[] = [];
  const emitted: EventDraft[] = [];
  const failed: { code: string; message: string }[] = [];
  const approvals = createMemoryApprovalChannel({
    onRequest: (request) => {
      if (options.approve === 'always')
        queueMicrotask(() => approvals.resolve(request.approvalId, { kind: 'approve', scope: 'always' }));
    },
  });
  let wake: () => void = () => undefined;
  const io: RunIO = {
    writeLine: async (value) => {
      written.push(value as Json);
      wake();
    },
    emit: (draft) => emitted.push(draft),
    fail: (error) => failed.push(error),
    approvals,
    signal: new AbortController().signal,
  };
  const ctx: LaunchContext = {
    request: { prompt: 'do it', cwd: '/w', ...(options.resume ? { resumeSessionId: options.resume } : {}) },
    runId: 'r1',
    taskId: 'r1',
    leaseToken: '',
    leaseEpoch: 0,
    mcpUrl: 'http://127.0.0.1:1/mcp',
    mcpToken: 'tok',
    workspacePath: '/w',
    env: {},
    debug: false,
  };
  const controller = acpController(io, ctx, {
    initializeTimeoutMs: options.initializeTimeoutMs ?? 60_000,
    ...(options.sessionLog ? { sessionLog: options.sessionLog } : {}),
  });
  const agentSays = (value: Json) => controller.onRecord?.({ kind: 'json', value: { jsonrpc: '2.0', ...value } });
  const next = async (method: string): Promise<Json> => {
    for (;;) {
      const found = written.find((m) => m.method === method);
      if (found) return found;
      await new Promise<void>((resolve) => {
        wake = resolve;
      });
    }
  };
  const answer = async (id: number | string): Promise<Json> => {
    for (;;) {
      const found = written.find((m) => m.id === id && !('method' in m));
      if (found) return found;
      await new Promise<void>((resolve) => {
        wake = resolve;
      });
    }
  };
  const handshake = async () => {
    const init = await next('initialize');
    agentSays({
      id: init.id,
      result: {
        protocolVersion: 1,
        agentCapabilities: { loadSession: options.loadSession ?? false, mcpCapabilities: { http: true } },
      },
    });
    const session = await next(options.loadSession && options.resume ? 'session/load' : 'session/new');
    agentSays({ id: session.id, result: options.loadSession && options.resume ? {} : { sessionId: 'S' } });
    return { init, session, prompt: await next('session/prompt') };
  };
  return { controller, written, emitted, failed, approvals, agentSays, next, answer, handshake };
}

const options = [
  { optionId: 'a1', name: 'Allow', kind: 'allow_once' },
  { optionId: 'a2', name: 'Always', kind: 'allow_always' },
  { optionId: 'r1', name: 'Reject', kind: 'reject_once' },
] as const;
const permission = (id: number, toolCallId = 'c1') => ({
  id,
  method: 'session/request_permission',
  params: { sessionId: 'S', toolCall: { toolCallId, title: 'Run ls', kind: 'execute', name: 'shell' }, options },
});

describe('acpController', () => {
  it('initializes with file-system capabilities, passes the MCP server with its token, then prompts', async () => {
    const h = harness();
    const { init, session, prompt } = await h.handshake();
    expect(init.params).toMatchObject({
      protocolVersion: 1,
      clientCapabilities: { fs: { readTextFile: true, writeTextFile: true } },
    });
    expect(session.params).toEqual({
      cwd: '/w',
      mcpServers: [
        {
          type: 'http',
          name: 'agent-mux',
          url: 'http://127.0.0.1:1/mcp',
          headers: [{ name: 'Authorization', value: 'Bearer tok' }],
        },
      ],
    });
    expect(prompt.params).toEqual({ sessionId: 'S', prompt: [{ type: 'text', text: 'do it' }] });
  });

  it('fails the run once when initialize is not answered in time, and not when it is', async () => {
    const silent = harness({ initializeTimeoutMs: 50 });
    await silent.next('initialize');
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(silent.failed).toEqual([
      {
        code: 'agent_error',
        message: 'the agent did not answer ACP initialize within 50 ms: is it started in its ACP mode (e.g. --acp)?',
      },
    ]);
    const answered = harness({ initializeTimeoutMs: 50 });
    await answered.handshake();
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(answered.failed).toEqual([]);
  });

  it('loads the session to resume when the agent can', async () => {
    const h = harness({ loadSession: true, resume: 'old' });
    const { session, prompt } = await h.handshake();
    expect(session.params).toMatchObject({ sessionId: 'old', cwd: '/w' });
    expect(prompt.params).toMatchObject({ sessionId: 'old' });
  });

  it('on stop, answers an open permission request `cancelled` before sending session/cancel', async () => {
    const h = harness({ approve: 'never' });
    await h.handshake();
    h.agentSays(permission(40));
    await new Promise((r) => setTimeout(r, 20));
    expect(h.approvals.pending()).toHaveLength(1);
    expect(h.controller.requestStop?.('cancelled')).toBe(false);
    const reply = await h.answer(40);
    const cancel = await h.next('session/cancel');
    expect(reply.result).toEqual({ outcome: { outcome: 'cancelled' } });
    expect(cancel.params).toEqual({ sessionId: 'S' });
    expect(h.written.indexOf(reply)).toBeLessThan(h.written.indexOf(cancel));
  });

  it('an `always` approval lasts the run here: the agent hears allow_once each time, nobody is asked again', async () => {
    const h = harness({ approve: 'always' });
    await h.handshake();
    h.agentSays(permission(50));
    expect((await h.answer(50)).result).toEqual({ outcome: { outcome: 'selected', optionId: 'a1' } });
    h.agentSays(permission(51, 'c2'));
    expect((await h.answer(51)).result).toEqual({ outcome: { outcome: 'selected', optionId: 'a1' } });
    expect(h.emitted.filter((d) => d.type === 'approval_request')).toHaveLength(1);
  });

  it("an agent's log gives the approval its reason, and the failed calls ACP never reported become failed steps at the end", async () => {
    const asked: { sessionId: string; toolCallId: string }[] = [];
    const log: AcpSessionLog = {
      reason: async (_env, sessionId, toolCallId) => {
        asked.push({ sessionId, toolCallId });
        return 'Write the marker file.';
      },
      unreported: async (_env, _sessionId, reported) =>
        reported.has('c0')
          ? []
          : [{ toolCallId: 'c0', title: 'touch a', kind: 'execute', output: 'Read-only file system', exitCode: 1 }],
    };
    const h = harness({ approve: 'never', sessionLog: log });
    await h.handshake();
    h.agentSays(permission(70));
    await new Promise((r) => setTimeout(r, 20));
    expect(asked).toEqual([{ sessionId: 'S', toolCallId: 'c1' }]);
    expect(h.approvals.pending()[0]?.reason).toBe('the agent says: Write the marker file.');
    await h.controller.settle?.();
    const steps = h.emitted.filter((d) => 'toolCallId' in d && d.toolCallId === 'c0');
    expect(steps.map((d) => d.type)).toEqual(['tool_call_start', 'tool_call_ready', 'tool_result']);
    expect(steps[2]).toMatchObject({ isError: true, output: { exitCode: 1, output: 'Read-only file system' } });
  });

  it('without a tool host, a file request is an error answer and a failed, visible tool call', async () => {
    const h = harness();
    await h.handshake();
    h.agentSays({ id: 60, method: 'fs/write_text_file', params: { sessionId: 'S', path: '/w/a.txt', content: 'x' } });
    const reply = await h.answer(60);
    expect(reply.error).toMatchObject({ code: -32603 });
    expect(h.emitted.map((d) => d.type)).toEqual(['tool_call_start', 'tool_call_ready', 'tool_result']);
    expect(h.emitted[1]).toMatchObject({ toolName: 'write_file', input: { path: 'a.txt', content: 'x' } });
  });

  it('pickOption answers approvals once and refusals once where offered, else the other scope of the same verdict', () => {
    const once = { kind: 'approve', scope: 'once' } as const;
    const always = { kind: 'approve', scope: 'always' } as const;
    const deny = { kind: 'deny', reason: 'no' } as const;
    expect(pickOption(options, once)?.optionId).toBe('a1');
    // The run keeps an `always` grant itself: the agent would keep `allow_always` beyond the run.
    expect(pickOption(options, always)?.optionId).toBe('a1');
    expect(pickOption(options, deny)?.optionId).toBe('r1');
    const onlyAlways = [{ optionId: 'x', name: 'x', kind: 'allow_always' as const }];
    expect(pickOption(onlyAlways, once)?.optionId).toBe('x');
    expect(pickOption(onlyAlways, always)?.optionId).toBe('x');
    expect(pickOption(onlyAlways, deny)).toBeUndefined();
    expect(pickOption([{ optionId: 'n', name: 'n', kind: 'reject_always' as const }], deny)?.optionId).toBe('n');
  });
});

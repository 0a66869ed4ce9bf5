import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ChatSseOptions } from '../../../../src/adapters/protocols/chat-sse/index.ts';
import { chatSseAdapter } from '../../../../src/adapters/protocols/chat-sse/index.ts';
import type { AgentEvent } from '../../../../src/core/events/index.ts';
import type { RunOptions } from '../../../../src/core/run/run-options.ts';
import { startRun } from '../../../../src/core/run/start-run.ts';
import type { ApprovalChannel } from '../../../../src/core/tools/approval-channel.ts';
import { autoApprovalChannel } from '../../../../src/core/tools/index.ts';
import { expectWellFormedStream } from '../../../contract/adapter-contract.ts';
import { collectRun } from '../../../support/collect-run.ts';
import { type ChatScript, type ChatStandIn, chatStandIn } from './chat-sse-stand-in.ts';

const cwd = mkdtempSync(join(tmpdir(), 'agent-mux-chat-sse-'));
let servers: ChatStandIn[] = [];
afterEach(async () => {
  for (const server of servers) await server.close();
  servers = [];
});

const serve = async (script: (chat: ChatScript) => Promise<void> | void, options: { relayStatus?: number } = {}) => {
  const server = await chatStandIn(script, options);
  servers.push(server);
  return server;
};
const adapterFor = (server: ChatStandIn, extra: Partial<ChatSseOptions> = {}) =>
  chatSseAdapter('gateway', {
    type: 'chat-sse',
    baseUrl: server.baseUrl,
    model: 'openai/gpt-4o-mini',
    auth: { type: 'none' },
    ...extra,
  });
const run = async (server: ChatStandIn, options: Partial<RunOptions> = {}, extra: Partial<ChatSseOptions> = {}) => {
  const result = await collectRun(
    startRun({ adapter: adapterFor(server, extra), request: { prompt: 'fix the bug', cwd }, graceMs: 500, ...options }),
  );
  expectWellFormedStream(result.events, 'gateway');
  return result;
};
const ofType = <T extends AgentEvent['type']>(events: AgentEvent[], type: T) =>
  events.filter((e): e is Extract<AgentEvent, { type: T }> => e.type === type);
const joined = (events: AgentEvent[], type: 'text_delta' | 'thinking_delta') =>
  events.map((e) => (e.type === type ? e.delta : '')).join('');

const root = { runId: 'run-1', agentId: 'agent-1' };
const connected = { type: 'connected', sessionId: 'session-1' };
const start = { type: 'harness_start', ...root, maxIterations: 10 };
const end = (reason = 'final', extra: Record<string, unknown> = {}) => ({
  type: 'harness_end',
  ...root,
  reason,
  iterations: 2,
  ...extra,
});
const text = (id: string, content: string) => ({ type: 'text', ...root, id, parentId: 'run-1', content });

/** A relay for `tool`, then what the agent does with the answer, as llm-gateway's agent harness does. */
const relayScript = (tool: string) => async (chat: ChatScript) => {
  chat.send(connected);
  chat.send(start);
  const toolCallId = 'run-1/call-1';
  chat.send({ type: 'relay', kind: 'permission', ...root, id: 'relay-1', toolCallId, tool, params: { command: 'ls' } });
  const answer = await chat.relayAnswer('relay-1');
  const response = answer.response as { approved: boolean; reason?: string };
  if (response.approved) {
    chat.send({ type: 'tool_call', ...root, id: toolCallId, name: tool, input: { command: 'ls' } });
    chat.send({ type: 'tool_result', ...root, id: toolCallId, name: tool, output: { context: 'a.txt', result: 0 } });
  } else {
    chat.send({
      type: 'tool_result',
      ...root,
      id: toolCallId,
      name: tool,
      output: { status: 'denied', reason: response.reason },
    });
  }
  chat.send(text('text-2', 'done'));
  chat.send(end());
  chat.res.end();
};

describe('chatSseAdapter', () => {
  it('runs a full chat: request body, session, reasoning, text, tools, usage and the end', async () => {
    const server = await serve((chat) => {
      chat.send(connected);
      chat.send(start);
      chat.send({ type: 'reasoning', ...root, id: 'r-1', content: 'Let me ' });
      chat.send({ type: 'reasoning', ...root, id: 'r-1', content: 'look.' });
      chat.send(text('t-1', 'I will read '));
      chat.send(text('t-1', 'the file.'));
      chat.send({ type: 'usage', ...root, inputTokens: 100, outputTokens: 20, cacheReadTokens: 50 });
      chat.send({ type: 'tool_call', ...root, id: 'run-1/c1', name: 'read', input: { path: 'a.ts' } });
      // A subagent's own run must not end the run.
      chat.send({ type: 'harness_start', runId: 'sub-1', agentId: 'agent-2', parentId: 'run-1/c1' });
      chat.send({ type: 'harness_end', runId: 'sub-1', agentId: 'agent-2', parentId: 'run-1/c1', reason: 'final' });
      chat.send({ type: 'tool_result', ...root, id: 'run-1/c1', name: 'read', output: { context: 'x', result: 1 } });
      chat.send(text('t-2', 'Fixed.'));
      chat.send({ type: 'usage', ...root, inputTokens: 150, outputTokens: 10 });
      chat.send(end('final', { usage: { inputTokens: 250, outputTokens: 30 } }));
      chat.res.end();
    });
    const { events, end: runEnd } = await run(server, {}, {});
    expect(server.chats[0]?.body).toEqual({
      model: 'openai/gpt-4o-mini',
      messages: [{ role: 'user', content: 'fix the bug' }],
      mode: 'agent',
    });
    expect(runEnd.reason).toBe('completed');
    expect(runEnd.sessionId).toBe('session-1');
    expect(runEnd.output).toBe('Fixed.');
    expect(ofType(events, 'session_start')[0]?.sessionId).toBe('session-1');
    expect(joined(events, 'thinking_delta')).toBe('Let me look.');
    expect(ofType(events, 'thinking_stop')[0]?.thinking).toBe('Let me look.');
    expect(ofType(events, 'message_stop').map((e) => e.text)).toEqual([undefined, 'I will read the file.', 'Fixed.']);
    expect(ofType(events, 'tool_call_ready')[0]).toMatchObject({
      toolCallId: 'run-1/c1',
      toolName: 'read',
      input: { path: 'a.ts' },
    });
    expect(ofType(events, 'tool_result')[0]).toMatchObject({ toolCallId: 'run-1/c1', isError: false });
    // Usage records are per provider call: two increments, the cumulative one on harness_end is not added again.
    const costs = ofType(events, 'cost');
    expect(costs.map((c) => [c.inputTokens, c.outputTokens])).toEqual([
      [100, 20],
      [150, 10],
    ]);
    expect(costs[0]?.cacheReadTokens).toBe(50);
    expect(runEnd.totals.inputTokens).toBe(250);
    expect(ofType(events, 'turn_end')[0]).toMatchObject({ stopReason: 'final', result: 'Fixed.' });
  });

  it('sends the system prompt, the run model, mode and iteration settings, and bearer auth', async () => {
    const server = await serve((chat) => {
      chat.send(connected);
      chat.send(start);
      chat.send(end());
      chat.res.end();
    });
    const { end: runEnd } = await run(
      server,
      {
        request: { prompt: 'go', cwd, model: 'anthropic/claude-sonnet-4', systemPrompt: 'Be brief.', maxTurns: 7 },
        env: { ...process.env, GATEWAY_TOKEN: 'tok-123' },
      },
      { mode: 'rlm', maxDepth: 3, context: 'repo: demo', auth: { type: 'bearer', tokenEnv: 'GATEWAY_TOKEN' } },
    );
    expect(runEnd.reason).toBe('completed');
    expect(server.chats[0]?.headers.authorization).toBe('Bearer tok-123');
    expect(server.chats[0]?.body).toEqual({
      model: 'anthropic/claude-sonnet-4',
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'go' },
      ],
      context: 'repo: demo',
      mode: 'rlm',
      maxIterations: 7,
      maxDepth: 3,
    });
  });

  it('fails with an auth error when the bearer token variable is not set', async () => {
    const server = await serve(() => undefined);
    const { events, end: runEnd } = await run(
      server,
      { env: {} },
      { auth: { type: 'bearer', tokenEnv: 'GATEWAY_TOKEN_MISSING' } },
    );
    expect(runEnd.reason).toBe('failed');
    expect(runEnd.message).toContain('GATEWAY_TOKEN_MISSING');
    expect(ofType(events, 'error')[0]?.code).toBe('auth');
    expect(server.chats).toHaveLength(0);
  });

  it('answers an approved relay through the approval channel', async () => {
    const server = await serve(relayScript('bash'));
    const { events, end: runEnd } = await run(server, { approvals: autoApprovalChannel('approve') });
    expect(runEnd.reason).toBe('completed');
    expect(server.relays).toEqual([
      { relayId: 'relay-1', body: { sessionId: 'session-1', response: { approved: true } } },
    ]);
    expect(ofType(events, 'approval_request')[0]).toMatchObject({
      approvalId: 'relay-1',
      toolName: 'bash',
      input: { command: 'ls' },
      toolCallId: 'run-1/call-1',
    });
    expect(ofType(events, 'approval_granted')[0]?.scope).toBe('once');
    expect(ofType(events, 'tool_call_start')).toHaveLength(1);
    expect(ofType(events, 'tool_result')[0]?.isError).toBe(false);
  });

  it('answers a denied relay with the reason, and the denied result is an error', async () => {
    const server = await serve(relayScript('bash'));
    const deny: ApprovalChannel = { request: async () => ({ kind: 'deny', reason: 'not today' }) };
    const { events, end: runEnd } = await run(server, { approvals: deny });
    expect(runEnd.reason).toBe('completed');
    expect(server.relays[0]?.body).toEqual({
      sessionId: 'session-1',
      response: { approved: false, reason: 'not today' },
    });
    expect(ofType(events, 'approval_denied')[0]?.reason).toBe('not today');
    expect(ofType(events, 'tool_result')[0]).toMatchObject({ toolCallId: 'run-1/call-1', isError: true });
  });

  it('passes an "always" approval on to the server', async () => {
    const server = await serve(relayScript('bash'));
    const always: ApprovalChannel = { request: async () => ({ kind: 'approve', scope: 'always' }) };
    const { events } = await run(server, { approvals: always });
    expect(server.relays[0]?.body).toEqual({ sessionId: 'session-1', response: { approved: true, always: true } });
    expect(ofType(events, 'approval_granted')[0]?.scope).toBe('always');
  });

  it('denies a relay when the run has no approval channel', async () => {
    const server = await serve(relayScript('bash'));
    const { events, end: runEnd } = await run(server, { approvals: undefined });
    expect(runEnd.reason).toBe('completed');
    expect(server.relays[0]?.body.response).toMatchObject({ approved: false });
    expect(ofType(events, 'approval_denied')[0]?.timedOut).toBe(true);
  });

  it('maps the policy: allow rules go to the allowlist, deny rules answer relays without asking', async () => {
    const server = await serve(relayScript('bash'));
    const asked: string[] = [];
    const channel: ApprovalChannel = {
      request: async (request) => {
        asked.push(request.toolName);
        return { kind: 'approve', scope: 'once' };
      },
    };
    const { events } = await run(server, {
      approvals: channel,
      policy: {
        default: 'ask',
        rules: [
          { tool: 'read', decision: 'allow' },
          { tool: 'bash', decision: 'deny', reason: 'no shells here' },
        ],
      },
    });
    expect(server.chats[0]?.body.permissions).toEqual({ allowlist: [{ tool: 'read' }] });
    expect(server.relays[0]?.body.response).toEqual({ approved: false, reason: 'no shells here' });
    expect(asked).toEqual([]);
    expect(ofType(events, 'approval_request')).toHaveLength(0);
  });

  it('approves a relay the policy allows by its arguments, without asking', async () => {
    const server = await serve(relayScript('bash'));
    const { events, end: runEnd } = await run(server, {
      approvals: autoApprovalChannel('deny'),
      policy: { default: 'ask', rules: [{ tool: 'bash', decision: 'allow', when: { command: 'ls' } }] },
    });
    expect(runEnd.reason).toBe('completed');
    expect(server.chats[0]?.body.permissions).toEqual({ allowlist: [] });
    expect(server.relays[0]?.body.response).toEqual({ approved: true });
    expect(ofType(events, 'approval_request')).toHaveLength(0);
  });

  it('fails when the server refuses the answer to a relay', async () => {
    const server = await serve(
      async (chat) => {
        chat.send(connected);
        chat.send(start);
        chat.send({
          type: 'relay',
          kind: 'permission',
          ...root,
          id: 'relay-9',
          toolCallId: 'c9',
          tool: 'bash',
          params: {},
        });
        await chat.closed;
      },
      { relayStatus: 404 },
    );
    const { events, end: runEnd } = await run(server, { approvals: autoApprovalChannel('approve') });
    expect(runEnd.reason).toBe('failed');
    expect(runEnd.message).toBe('the chat-sse server refused the answer to relay relay-9 (HTTP 404): Relay not found');
    expect(ofType(events, 'error').at(-1)?.code).toBe('remote_unavailable');
  });

  it('ends completed with a note when the agent hits max_iterations', async () => {
    const server = await serve((chat) => {
      chat.send(connected);
      chat.send(start);
      chat.send(text('t-1', 'Partial summary.'));
      chat.send(end('max_iterations', { iterations: 10 }));
      chat.res.end();
    });
    const { events, end: runEnd } = await run(server);
    expect(runEnd.reason).toBe('completed');
    expect(runEnd.output).toBe('Partial summary.');
    expect(ofType(events, 'turn_end')[0]?.stopReason).toBe('max_iterations');
    expect(ofType(events, 'error')).toHaveLength(0);
  });

  it('fails on an error of the agent (with a runId) followed by its harness_end', async () => {
    const server = await serve((chat) => {
      chat.send(connected);
      chat.send(start);
      chat.send(text('t-1', 'Trying'));
      chat.send({ type: 'error', runId: 'provider-1', parentId: 'run-1', agentId: 'agent-1', message: 'rate limited' });
      chat.send({ type: 'harness_end', ...root });
      chat.res.end();
    });
    const { events, end: runEnd } = await run(server);
    expect(runEnd.reason).toBe('failed');
    expect(runEnd.message).toBe('rate limited');
    expect(ofType(events, 'error')[0]).toMatchObject({
      code: 'agent_error',
      message: 'rate limited',
      recoverable: false,
    });
  });

  it('completes when the agent goes on after its own error (a tool that threw)', async () => {
    const server = await serve((chat) => {
      chat.send(connected);
      chat.send(start);
      chat.send({ type: 'tool_call', ...root, id: 'run-1/c1', name: 'bash', input: {} });
      chat.send({ type: 'error', ...root, message: 'spawn bash ENOENT' });
      chat.send(text('t-1', 'bash is missing; done anyway.'));
      chat.send(end());
      chat.res.end();
    });
    const { events, end: runEnd } = await run(server);
    expect(runEnd.reason).toBe('completed');
    expect(ofType(events, 'error')[0]).toMatchObject({ message: 'spawn bash ENOENT', recoverable: true });
  });

  it('fails on an error of the agent itself followed by its harness_end', async () => {
    const server = await serve((chat) => {
      chat.send(connected);
      chat.send(start);
      chat.send({ type: 'tool_call', ...root, id: 'run-1/c1', name: 'nope', input: {} });
      chat.send({ type: 'error', ...root, message: 'No executor for tool: nope' });
      chat.send({ type: 'harness_end', ...root });
      chat.res.end();
    });
    const { end: runEnd } = await run(server);
    expect(runEnd.reason).toBe('failed');
    expect(runEnd.message).toBe('No executor for tool: nope');
  });

  it('fails on a server error without a runId', async () => {
    const server = await serve((chat) => {
      chat.send(connected);
      chat.send({ type: 'error', message: 'No API key for provider openai' });
      chat.res.end();
    });
    const { end: runEnd } = await run(server);
    expect(runEnd.reason).toBe('failed');
    expect(runEnd.message).toBe('No API key for provider openai');
  });

  it("keeps going after a subagent's error", async () => {
    const server = await serve((chat) => {
      chat.send(connected);
      chat.send(start);
      chat.send({ type: 'harness_start', runId: 'sub-1', agentId: 'agent-2', parentId: 'run-1/c1' });
      chat.send({ type: 'error', runId: 'sub-1', agentId: 'agent-2', parentId: 'run-1/c1', message: 'sub failed' });
      chat.send({ type: 'harness_end', runId: 'sub-1', agentId: 'agent-2', parentId: 'run-1/c1' });
      chat.send(text('t-1', 'Recovered.'));
      chat.send(end());
      chat.res.end();
    });
    const { events, end: runEnd } = await run(server);
    expect(runEnd.reason).toBe('completed');
    expect(ofType(events, 'error')[0]).toMatchObject({ message: 'sub failed', recoverable: true });
  });

  it('fails clearly with what the server rejected on a 400', async () => {
    const server = await serve((chat) => {
      chat.res.writeHead(400, { 'content-type': 'application/json' });
      chat.res.end(JSON.stringify({ error: 'model and messages are required' }));
    });
    const { events, end: runEnd } = await run(server, {}, { model: undefined });
    expect(runEnd.reason).toBe('failed');
    expect(runEnd.message).toBe('the chat-sse server rejected the request (HTTP 400): model and messages are required');
    expect(ofType(events, 'error')[0]?.code).toBe('agent_error');
    expect(server.chats[0]?.body.model).toBeUndefined();
  });

  it('ends crashed when the server closes the stream mid-run', async () => {
    const server = await serve((chat) => {
      chat.send(connected);
      chat.send(start);
      chat.send(text('t-1', 'half a sen'));
      chat.res.end();
    });
    const { events, end: runEnd } = await run(server);
    expect(runEnd.reason).toBe('crashed');
    expect(runEnd.message).toContain('closed the stream before the run ended');
    expect(ofType(events, 'message_stop')[0]?.text).toBe('half a sen');
  });

  it('ends crashed when the connection breaks mid-stream', async () => {
    const server = await serve((chat) => {
      chat.send(connected);
      chat.send(text('t-1', 'abc'));
      setImmediate(() => chat.res.socket?.destroy());
    });
    const { end: runEnd } = await run(server);
    expect(runEnd.reason).toBe('crashed');
  });

  it('reports an unreachable server', async () => {
    const server = await serve(() => undefined);
    await server.close();
    const { events, end: runEnd } = await run(server);
    expect(runEnd.reason).toBe('failed');
    expect(ofType(events, 'error')[0]?.code).toBe('remote_unavailable');
  });

  it('aborts the request when the run is stopped', async () => {
    let clientGone: Promise<void> | undefined;
    const server = await serve((chat) => {
      clientGone = chat.closed;
      chat.send(connected);
      chat.send(start);
      chat.send(text('t-1', 'thinking forever'));
    });
    const handle = startRun({ adapter: adapterFor(server), request: { prompt: 'go', cwd }, graceMs: 500 });
    const events: AgentEvent[] = [];
    for await (const event of handle.events) {
      events.push(event);
      if (event.type === 'text_delta') handle.abort('user stop');
    }
    const runEnd = await handle.result;
    expectWellFormedStream(events, 'gateway');
    expect(runEnd.reason).toBe('aborted');
    await clientGone;
  });
});

import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { codexMalformed, codexRecord, codexRecordSchema } from '../../../../src/adapters/agents/codex/codex-record.ts';
import { codexTranslator } from '../../../../src/adapters/agents/codex/codex-translator.ts';
import type { NativeRecord, RunRequest } from '../../../../src/core/adapter/index.ts';
import type { EventDraft } from '../../../../src/core/events/index.ts';
import { expectEdgeCheckAgrees } from '../../../support/edge-check-agreement.ts';

const json = (value: unknown): NativeRecord => ({ kind: 'json', value });
const stream = (name: string) => new URL(`../../../fixtures/streams/codex/${name}`, import.meta.url);

function run(records: NativeRecord[], options: { debug?: boolean; request?: Partial<RunRequest> } = {}) {
  const request = options.request ? ({ prompt: 'x', cwd: '/w', ...options.request } as RunRequest) : undefined;
  const state = codexTranslator.init({ debug: options.debug ?? false, request });
  const events: EventDraft[] = [];
  for (const record of records) events.push(...codexTranslator.translate(record, state));
  return { state, events };
}

function recorded(name: string, request?: Partial<RunRequest>) {
  const records = readFileSync(stream(name), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => json(JSON.parse(line)));
  return run(records, { request });
}

const types = (events: EventDraft[]) => events.map((e) => e.type);

describe('codexTranslator', () => {
  it('translates the recorded tool run (codex app-server): session, shell call, streamed answer, cost, outcome', () => {
    const { events, state } = recorded('tool.jsonl');
    const collapsed = types(events).filter((t, i, all) => t !== 'text_delta' || all[i - 1] !== 'text_delta');
    expect(collapsed).toEqual([
      'session_start',
      'turn_start',
      'tool_call_start',
      'tool_call_ready',
      'tool_result',
      'message_start',
      'text_delta',
      'message_stop',
      'cost',
      'turn_end',
    ]);
    const deltas = events.filter((e) => e.type === 'text_delta');
    expect(deltas.length).toBeGreaterThan(1);
    expect(deltas.map((e) => (e.type === 'text_delta' ? e.delta : '')).join('')).toBe(
      'The command ran and printed agent-mux-live. Done.',
    );
    expect(events.find((e) => e.type === 'tool_call_ready')).toMatchObject({
      toolName: 'exec_command',
      input: { command: "/bin/bash -lc 'echo agent-mux-live'" },
    });
    expect(events.find((e) => e.type === 'tool_result')).toMatchObject({ output: 'agent-mux-live\n', isError: false });
    expect(events.find((e) => e.type === 'cost')).toEqual({
      type: 'cost',
      inputTokens: 160,
      outputTokens: 48,
      cacheReadTokens: 80,
      cacheWriteTokens: 0,
      thinkingTokens: 0,
      model: undefined,
      cumulative: true,
    });
    expect(state.sessionId).toMatch(/^[0-9a-f-]{36}$/);
    expect(state.outcome).toEqual({ status: 'completed', output: 'The command ran and printed agent-mux-live. Done.' });
    expect(state.terminal).toBe(true);
  });

  it('reads the same run from `codex exec --json` (recorded with 0.169.0) into the same events', () => {
    const app = recorded('tool.jsonl');
    const exec = recorded('exec-tool-adhoc.jsonl');
    const withoutText = (events: EventDraft[]) =>
      events
        .filter((e) => e.type !== 'text_delta')
        .map((e) => {
          const ids = ['toolCallId', 'sessionId', 'messageId'].filter((key) => key in e);
          return { ...e, ...Object.fromEntries(ids.map((key) => [key, '<id>'])) };
        });
    expect(withoutText(exec.events)).toEqual(withoutText(app.events));
    expect(exec.state.outcome).toEqual(app.state.outcome);
  });

  it('fails the run with Codex’s reason when the app-server refuses the thread (a resume of a lost session)', () => {
    const { events, state } = run([
      json({ id: 'agent-mux-initialize', result: {} }),
      json({ id: 'agent-mux-thread', error: { code: -32600, message: 'no rollout found for thread id lost-id' } }),
    ]);
    expect(events).toContainEqual(expect.objectContaining({ type: 'turn_end', isError: true }));
    expect(state.outcome).toEqual({ status: 'failed', message: 'no rollout found for thread id lost-id' });
    expect(state.terminal).toBe(true);
  });

  it('reads app-server plan updates as progress and a refused steer as nothing', () => {
    const { events } = run([
      json({
        method: 'turn/plan/updated',
        params: {
          threadId: 't',
          turnId: 'turn-1',
          plan: [
            { step: 'read', status: 'completed' },
            { step: 'fix', status: 'inProgress' },
          ],
        },
      }),
      json({ id: 'agent-mux-steer-1', error: { code: -32600, message: 'no active turn to steer' } }),
      json({ method: 'account/rateLimits/updated', params: {} }),
    ]);
    expect(events).toEqual([{ type: 'progress', summary: 'plan 1/2\n[x] read\n[ ] fix' }]);
  });

  it('reports a resumed thread as session_resume and a forked one as session_fork', () => {
    const resumed = recorded('resume.jsonl');
    const id = resumed.state.sessionId as string;
    expect(recorded('resume.jsonl', { resumeSessionId: id }).events[0]).toEqual({
      type: 'session_resume',
      sessionId: id,
      previousSessionId: id,
    });
    const forked = recorded('fork-adhoc.jsonl', { resumeSessionId: 'parent-id', fork: true });
    expect(forked.events[0]).toMatchObject({ type: 'session_fork', forkedFrom: 'parent-id' });
    expect(forked.events[0]).toHaveProperty('sessionId', forked.state.sessionId);
  });

  it('turns mcp_tool_call items into MCP events', () => {
    const { events } = recorded('mcp-adhoc.jsonl');
    const start = events.find((e) => e.type === 'mcp_tool_call_start');
    const result = events.find((e) => e.type === 'mcp_tool_result');
    expect(start).toMatchObject({ server: 'agent_mux', toolName: 'list_files', input: {} });
    expect(result).toMatchObject({ server: 'agent_mux', toolName: 'list_files', isError: false });
    expect(result?.type === 'mcp_tool_result' && result.output).toEqual([
      { type: 'text', text: '{"path":".","entries":[],"truncated":false}' },
    ]);
    expect(events.some((e) => e.type === 'tool_call_start')).toBe(false);
  });

  it('reports a failed MCP call with its error message', () => {
    const item = {
      id: 'item_0',
      type: 'mcp_tool_call',
      server: 'agent_mux',
      tool: 'write_file',
      arguments: { path: 'a' },
      result: null,
      error: { message: 'MCP tool call requires approval, but approval policy is never' },
      status: 'failed',
    };
    const { events } = run([json({ type: 'item.completed', item })]);
    expect(events).toEqual([
      {
        type: 'mcp_tool_call_start',
        toolCallId: 'item_0',
        server: 'agent_mux',
        toolName: 'write_file',
        input: { path: 'a' },
      },
      {
        type: 'mcp_tool_result',
        toolCallId: 'item_0',
        server: 'agent_mux',
        toolName: 'write_file',
        output: 'MCP tool call requires approval, but approval policy is never',
        isError: true,
      },
    ]);
  });

  it('classifies the recorded 401 and 429 failures once, keeping retries as log lines', () => {
    const auth = recorded('auth-401.jsonl');
    expect(types(auth.events)).toEqual(['session_start', 'turn_start', 'log', 'auth_error', 'turn_end']);
    expect(auth.state.outcome).toEqual({
      status: 'failed',
      message: 'unexpected status 401 Unauthorized: Incorrect API key provided: fake-key.',
    });
    const rate = recorded('rate-429.jsonl');
    expect(types(rate.events)).toEqual(['session_start', 'turn_start', 'log', 'rate_limit_error', 'turn_end']);
  });

  it('reads a retry delay and recognizes context overflow and other errors', () => {
    const { events } = run([
      json({ type: 'error', message: 'Rate limit reached for gpt-5. Please try again in 1.5s.' }),
      json({ type: 'error', message: "Codex ran out of room in the model's context window. Start a new thread." }),
      json({ type: 'error', message: 'stream disconnected before completion' }),
    ]);
    expect(events[0]).toMatchObject({ type: 'rate_limit_error', retryAfterMs: 1500 });
    expect(events[1]).toMatchObject({ type: 'context_exceeded' });
    expect(events[2]).toMatchObject({ type: 'error', code: 'agent_error', recoverable: false });
  });

  it('classifies a turn.failed that no error record announced', () => {
    const { events, state } = run([
      json({ type: 'turn.failed', error: { message: 'unexpected status 401 Unauthorized' } }),
    ]);
    expect(types(events)).toEqual(['auth_error', 'turn_end']);
    expect(state.outcome).toEqual({ status: 'failed', message: 'unexpected status 401 Unauthorized' });
  });

  it('turns non-fatal error items into recoverable errors', () => {
    const item = { id: 'item_0', type: 'error', message: 'Model metadata for `gpt-5` not found.' };
    expect(run([json({ type: 'item.completed', item })]).events).toEqual([
      { type: 'error', code: 'agent_error', message: 'Model metadata for `gpt-5` not found.', recoverable: true },
    ]);
  });

  it('streams reasoning and messages given in updates as suffix deltas, once', () => {
    const reasoning = (text: string) => ({ id: 'r1', type: 'reasoning', text });
    const { events } = run([
      json({ type: 'item.started', item: reasoning('Think') }),
      json({ type: 'item.updated', item: reasoning('Thinking hard') }),
      json({ type: 'item.completed', item: reasoning('Thinking hard.') }),
      json({ type: 'item.completed', item: reasoning('Thinking hard.') }),
    ]);
    expect(events).toEqual([
      { type: 'thinking_start', messageId: 'r1' },
      { type: 'thinking_delta', delta: 'Think', messageId: 'r1' },
      { type: 'thinking_delta', delta: 'ing hard', messageId: 'r1' },
      { type: 'thinking_delta', delta: '.', messageId: 'r1' },
      { type: 'thinking_stop', messageId: 'r1', thinking: 'Thinking hard.' },
    ]);
  });

  it('maps file changes, a failed command, web searches and todo lists', () => {
    const { events } = run([
      json({
        type: 'item.completed',
        item: { id: 'f1', type: 'file_change', changes: [{ path: 'a.ts', kind: 'update' }], status: 'completed' },
      }),
      json({
        type: 'item.completed',
        item: {
          id: 'c1',
          type: 'command_execution',
          command: 'false',
          aggregated_output: '',
          exit_code: 1,
          status: 'failed',
        },
      }),
      json({
        type: 'item.started',
        item: { id: 'w1', type: 'web_search', query: 'vitest', action: { type: 'search' } },
      }),
      json({
        type: 'item.updated',
        item: {
          id: 't1',
          type: 'todo_list',
          items: [
            { text: 'a', completed: true },
            { text: 'b', completed: false },
          ],
        },
      }),
    ]);
    expect(
      events.filter((e) => e.type === 'tool_call_ready').map((e) => e.type === 'tool_call_ready' && e.toolName),
    ).toEqual(['apply_patch', 'exec_command', 'web_search']);
    expect(events.find((e) => e.type === 'tool_result' && e.toolCallId === 'c1')).toMatchObject({ isError: true });
    expect(events.at(-1)).toEqual({ type: 'progress', summary: 'plan 1/2\n[x] a\n[ ] b' });
  });

  it('drops unknown records unless debugging, and flags malformed ones', () => {
    const unknown = [
      json({ type: 'thread.archived' }),
      json({ type: 'item.completed', item: { id: 'x', type: 'hologram' } }),
    ];
    expect(run(unknown).events).toEqual([]);
    expect(types(run(unknown, { debug: true }).events)).toEqual(['debug', 'debug']);
    expect(run([json([1, 2])]).events).toEqual([]);
    expect(run([json({ type: 'item.completed' })]).events).toMatchObject([{ type: 'error', code: 'malformed_record' }]);
    expect(run([json({ type: 'thread.started' })]).events).toMatchObject([{ type: 'error', code: 'malformed_record' }]);
    expect(run([json({ type: 'item.completed', item: { type: 'agent_message' } })]).events).toMatchObject([
      { type: 'error', code: 'malformed_record' },
    ]);
  });

  it('keeps plain text lines as log lines, and never throws on odd values', () => {
    expect(run([{ kind: 'text', line: 'Reading prompt from stdin...' }]).events).toEqual([
      { type: 'log', source: 'stdout', line: 'Reading prompt from stdin...' },
    ]);
    const odd = [
      json({ type: 'turn.completed', usage: { input_tokens: -4, output_tokens: 'many' } }),
      json({ type: 'turn.failed', error: 7 }),
      json({ type: 'item.completed', item: { id: 'q', type: 'mcp_tool_call', result: 5, error: 'x' } }),
      json({ type: 'item.completed', item: { id: 'z', type: 'todo_list', items: 'nope' } }),
      json({ type: 'item.completed', item: { id: 7, type: 'agent_message' } }),
      json({ type: 'thread.started', thread_id: ['x'] }),
      json({ type: 'toString' }),
    ];
    expect(() => run(odd)).not.toThrow();
    expect(run(odd).events[0]).toMatchObject({ type: 'cost', inputTokens: 0, outputTokens: 0 });
  });

  it('closes a message left open when the program dies', () => {
    const state = codexTranslator.init({ debug: false });
    codexTranslator.translate(
      json({ type: 'item.updated', item: { id: 'm', type: 'agent_message', text: 'Hal' } }),
      state,
    );
    expect(codexTranslator.finish?.({ exitCode: null, signal: 'SIGKILL' }, state)).toEqual([
      { type: 'message_stop', messageId: 'm' },
    ]);
  });

  it('drops the endpoint that ends an error message, and only such an endpoint', () => {
    const message = (text: string) => {
      const [event] = run([json({ type: 'error', message: text })]).events;
      return event?.type === 'log' ? event.line : event && 'message' in event ? event.message : undefined;
    };
    expect(message('unexpected status 500: boom, url: http://127.0.0.1:1/v1/responses')).toBe(
      'unexpected status 500: boom',
    );
    expect(message('Reconnecting... 2/5 (unexpected status 500, url: http://h/v1/responses)\n')).toBe(
      'Reconnecting... 2/5 (unexpected status 500)\n',
    );
    expect(message('first, url: a, url:\thttp://h/x')).toBe('first, url: a');
    expect(message('first,url:a,url:http://h/x')).toBe('first');
    expect(message('boom, url: http://h/x then more words')).toBe('boom, url: http://h/x then more words');
    expect(message('boom, url:   ')).toBe('boom, url:   ');
    expect(message('boom url: http://h/x')).toBe('boom url: http://h/x');
  });

  it('keeps no state for items that have completed but their ids (a long run does not pile up open items)', () => {
    const records: NativeRecord[] = [];
    for (let i = 0; i < 100; i++) {
      const command = { id: `c${i}`, type: 'command_execution', command: 'true', aggregated_output: '' };
      records.push(json({ type: 'item.started', item: { ...command, status: 'in_progress' } }));
      records.push(json({ type: 'item.completed', item: { ...command, status: 'completed', exit_code: 0 } }));
      records.push(json({ type: 'item.updated', item: { id: `m${i}`, type: 'agent_message', text: 'he' } }));
      records.push(json({ type: 'item.completed', item: { id: `m${i}`, type: 'agent_message', text: 'hello' } }));
    }
    const { state, events } = run(records);
    expect(state.ledger.messageOpen).toBe(false);
    expect(state.ledger.thinkingOpen).toBe(false);
    expect(Array.from({ length: 100 }, (_, i) => state.ledger.hasTool(`c${i}`)).some(Boolean)).toBe(false);
    expect(state.mcp.size).toBe(0);
    expect(events.filter((e) => e.type === 'tool_result')).toHaveLength(100);
    expect(events.filter((e) => e.type === 'text_delta').map((e) => e.type === 'text_delta' && e.delta)).toEqual(
      Array.from({ length: 100 }, () => ['he', 'llo']).flat(),
    );
  });

  it('answers an event of a known type without what it cannot do without with a recoverable malformed_record', () => {
    const rows: [keyof typeof codexMalformed, unknown][] = [
      ['thread.started', { type: 'thread.started' }],
      ['thread.started', { type: 'thread.started', thread_id: '' }],
      ['thread.started', { type: 'thread.started', thread_id: 42 }],
      ['item.started', { type: 'item.started' }],
      ['item.updated', { type: 'item.updated', item: 'x' }],
      ['item.completed', { type: 'item.completed', item: { type: 'agent_message', text: 'hi' } }],
      ['item.completed', { type: 'item.completed', item: { id: '', type: 'agent_message' } }],
      ['item.completed', { type: 'item.completed', item: { id: 3, type: 'agent_message' } }],
    ];
    for (const [type, value] of rows) {
      expect(run([json(value)]).events, JSON.stringify(value)).toEqual([
        { type: 'error', code: 'malformed_record', message: codexMalformed[type], recoverable: true },
      ]);
    }
    // A type the table has no own key for is an unknown event, not a malformed one.
    expect(types(run([json({ type: 'toString' }), json({ type: 'constructor' })], { debug: true }).events)).toEqual([
      'debug',
      'debug',
    ]);
  });

  it('checks by hand exactly what the schema checks, and leaves the schema only what the hand check refuses', () => {
    expectEdgeCheckAgrees({
      malformed: codexMalformed,
      schema: codexRecordSchema,
      check: codexRecord,
      streams: ['codex'],
      nested: ['item'],
    });
  });
});

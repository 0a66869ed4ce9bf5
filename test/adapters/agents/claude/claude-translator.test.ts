import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  claudeMalformed,
  claudeRecord,
  claudeRecordSchema,
} from '../../../../src/adapters/agents/claude/claude-record.ts';
import { claudeTranslator, mcpName } from '../../../../src/adapters/agents/claude/claude-translator.ts';
import type { NativeRecord, RunRequest } from '../../../../src/core/adapter/index.ts';
import type { EventDraft } from '../../../../src/core/events/index.ts';
import { expectEdgeCheckAgrees } from '../../../support/edge-check-agreement.ts';

const json = (value: unknown): NativeRecord => ({ kind: 'json', value });
const stream = (name: string) => new URL(`../../../fixtures/streams/claude/${name}`, import.meta.url);

function run(records: NativeRecord[], options: { debug?: boolean; request?: Partial<RunRequest> } = {}) {
  const request = options.request ? ({ prompt: 'x', cwd: '/w', ...options.request } as RunRequest) : undefined;
  const state = claudeTranslator.init({ debug: options.debug ?? false, request });
  const events: EventDraft[] = [];
  for (const record of records) events.push(...claudeTranslator.translate(record, state));
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
const of = <T extends EventDraft['type']>(events: EventDraft[], type: T) =>
  events.filter((e): e is Extract<EventDraft, { type: T }> => e.type === type);

const init = (sessionId = 'sess-1') => ({
  type: 'system',
  subtype: 'init',
  cwd: '/w',
  session_id: sessionId,
  tools: ['Bash', 'Read', 'mcp__agent-mux__write_file'],
  mcp_servers: [{ name: 'agent-mux', status: 'connected' }],
  model: 'claude-sonnet-4-5',
});
const se = (event: unknown, id = 'msg_1') => ({
  type: 'stream_event',
  event,
  session_id: 'sess-1',
  parent_tool_use_id: null,
  api_message_id: id,
});
const assistant = (content: unknown[], id = 'msg_1', extra: Record<string, unknown> = {}) => ({
  type: 'assistant',
  message: { id, type: 'message', role: 'assistant', model: 'claude-sonnet-4-5', content },
  parent_tool_use_id: null,
  session_id: 'sess-1',
  ...extra,
});
const toolResult = (id: string, content: unknown, isError = false) => ({
  type: 'user',
  message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: id, content, is_error: isError }] },
  parent_tool_use_id: null,
  session_id: 'sess-1',
});
const result = (extra: Record<string, unknown> = {}) => ({
  type: 'result',
  subtype: 'success',
  is_error: false,
  result: 'done',
  session_id: 'sess-1',
  duration_ms: 120,
  num_turns: 1,
  stop_reason: 'end_turn',
  total_cost_usd: 0.01,
  usage: { input_tokens: 10, output_tokens: 5, cache_read_input_tokens: 2, cache_creation_input_tokens: 1 },
  ...extra,
});

describe('claudeTranslator on recorded streams (claude 2.1.330)', () => {
  it('tool: session, streamed tool call with input deltas, result, answer, cost, outcome', () => {
    const { events, state } = recorded('tool.jsonl');
    expect(types(events)).toEqual([
      'session_start',
      'turn_start',
      'message_start',
      'tool_call_start',
      'tool_input_delta',
      'tool_input_delta',
      'tool_call_ready',
      'cost',
      'message_stop',
      'tool_result',
      'message_start',
      ...Array(7).fill('text_delta'),
      'cost',
      'message_stop',
      'cost',
      'turn_end',
    ]);
    expect(of(events, 'tool_call_ready')[0]).toMatchObject({
      toolName: 'Bash',
      input: { command: 'echo agent-mux-live' },
    });
    expect(of(events, 'tool_result')[0]).toMatchObject({ toolName: 'Bash', output: 'agent-mux-live', isError: false });
    expect(of(events, 'cost').at(-1)).toMatchObject({ cumulative: true, inputTokens: 240, outputTokens: 48 });
    expect(state.outcome).toEqual({ status: 'completed', output: 'The command ran and printed agent-mux-live. Done.' });
    expect(state.sessionId).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('resume: session_resume follows session_start when the request resumed that session', () => {
    const first = JSON.parse(readFileSync(stream('resume.jsonl'), 'utf8').split('\n')[0] ?? '{}');
    const { events } = recorded('resume.jsonl', { resumeSessionId: first.session_id });
    expect(types(events).slice(0, 3)).toEqual(['session_start', 'session_resume', 'turn_start']);
    expect(of(events, 'session_resume')[0]).toEqual({
      type: 'session_resume',
      sessionId: first.session_id,
      previousSessionId: first.session_id,
    });
  });

  it('auth-401: one auth_error, a failed outcome with the CLI message', () => {
    const { events, state } = recorded('auth-401.jsonl');
    expect(of(events, 'auth_error')).toHaveLength(1);
    expect(of(events, 'error')).toHaveLength(0);
    expect(state.outcome).toEqual({ status: 'failed', message: 'Invalid API key · Fix external API key' });
    expect(of(events, 'message_start')).toHaveLength(0);
  });

  it('rate-429: one rate_limit_error and a failed outcome', () => {
    const { events, state } = recorded('rate-429.jsonl');
    expect(of(events, 'rate_limit_error')).toHaveLength(1);
    expect(state.outcome?.status).toBe('failed');
  });

  it("mcp-adhoc: the run's MCP write_file as generic and MCP tool events", () => {
    const { events, state } = recorded('mcp-adhoc.jsonl');
    expect(of(events, 'session_start')[0]?.tools).toContain('mcp__agent-mux__write_file');
    expect(of(events, 'mcp_tool_call_start')).toEqual([
      {
        type: 'mcp_tool_call_start',
        toolCallId: 'toolu_01',
        server: 'agent-mux',
        toolName: 'write_file',
        input: { path: 'from-mcp.txt', content: 'hello' },
      },
    ]);
    expect(of(events, 'mcp_tool_result')[0]).toMatchObject({
      server: 'agent-mux',
      toolName: 'write_file',
      isError: false,
    });
    expect(state.outcome?.status).toBe('completed');
  });

  it("approval-denied-adhoc: the prompt tool's denial comes back as an error tool result", () => {
    const { events } = recorded('approval-denied-adhoc.jsonl');
    expect(of(events, 'tool_result')[0]).toMatchObject({
      toolName: 'Bash',
      isError: true,
      output: 'permission denied for Bash: tool approvals are denied in this non-interactive run',
    });
  });

  it('fork-adhoc: a new session id forked from the old one; USD of this run only, not the session total', () => {
    const { events } = recorded('fork-adhoc.jsonl', {
      resumeSessionId: '111ba6c1-2b24-4980-ba38-fef75cfc48a6',
      fork: true,
    });
    expect(of(events, 'session_fork')).toEqual([
      {
        type: 'session_fork',
        sessionId: '08f70fbc-d2bf-45f4-9622-d9918b8aa188',
        forkedFrom: '111ba6c1-2b24-4980-ba38-fef75cfc48a6',
      },
    ]);
    // The result says total_cost_usd 0.001203 (the parent's turn included); this run spent half of it.
    expect(of(events, 'cost').at(-1)).toMatchObject({ cumulative: true, inputTokens: 100, usd: 0.0006015 });
  });

  it('denied: Bash was removed from the tools Claude offers', () => {
    const { events } = recorded('denied.jsonl');
    expect(of(events, 'session_start')[0]?.tools).not.toContain('Bash');
    expect(of(events, 'tool_call_start')).toHaveLength(0);
  });
});

describe('claudeTranslator on hand-made records', () => {
  it('fork: session_fork with the new id and the one forked from', () => {
    const { events } = run([json(init('new-id'))], { request: { resumeSessionId: 'old-id', fork: true } });
    expect(of(events, 'session_fork')).toEqual([{ type: 'session_fork', sessionId: 'new-id', forkedFrom: 'old-id' }]);
  });

  it('announces the session once even when init repeats', () => {
    const { events } = run([json(init()), json(init())]);
    expect(of(events, 'session_start')).toHaveLength(1);
    expect(of(events, 'turn_start')).toHaveLength(1);
  });

  it('without partial messages: whole assistant blocks give text, thinking and a ready tool call', () => {
    const { events } = run([
      json(init()),
      json(assistant([{ type: 'thinking', thinking: 'hmm', signature: 's' }])),
      json(assistant([{ type: 'text', text: 'Hi.' }])),
      json(assistant([{ type: 'tool_use', id: 'toolu_1', name: 'Read', input: { file_path: 'README.md' } }])),
      json(
        toolResult('toolu_1', [
          { type: 'text', text: 'line 1' },
          { type: 'text', text: 'line 2' },
        ]),
      ),
      json(result()),
    ]);
    expect(types(events)).toEqual([
      'session_start',
      'turn_start',
      'message_start',
      'thinking_start',
      'thinking_delta',
      'thinking_stop',
      'text_delta',
      'tool_call_start',
      'tool_call_ready',
      'message_stop',
      'tool_result',
      'cost',
      'turn_end',
    ]);
    expect(of(events, 'message_stop')[0]).toMatchObject({ messageId: 'msg_1', text: 'Hi.' });
    expect(of(events, 'tool_result')[0]).toMatchObject({ toolName: 'Read', output: 'line 1\nline 2' });
  });

  it('streams thinking deltas and does not repeat the streamed message from its assistant record', () => {
    const { events } = run([
      json(se({ type: 'message_start', message: { id: 'msg_1', model: 'm', usage: { input_tokens: 7 } } })),
      json(se({ type: 'content_block_start', index: 0, content_block: { type: 'thinking', thinking: '' } })),
      json(se({ type: 'content_block_delta', index: 0, delta: { type: 'thinking_delta', thinking: 'a' } })),
      json(se({ type: 'content_block_delta', index: 0, delta: { type: 'signature_delta', signature: 'x' } })),
      json(assistant([{ type: 'thinking', thinking: 'a', signature: 'x' }])),
      json(se({ type: 'content_block_stop', index: 0 })),
      json(se({ type: 'content_block_start', index: 1, content_block: { type: 'text', text: '' } })),
      json(se({ type: 'content_block_delta', index: 1, delta: { type: 'text_delta', text: 'Hello' } })),
      json(assistant([{ type: 'text', text: 'Hello' }])),
      json(se({ type: 'content_block_stop', index: 1 })),
      json(se({ type: 'message_delta', delta: { stop_reason: 'end_turn' }, usage: { output_tokens: 3 } })),
      json(se({ type: 'message_stop' })),
    ]);
    expect(types(events)).toEqual([
      'turn_start',
      'message_start',
      'thinking_start',
      'thinking_delta',
      'thinking_stop',
      'text_delta',
      'cost',
      'message_stop',
    ]);
    expect(of(events, 'thinking_stop')[0]?.thinking).toBe('a');
    expect(of(events, 'cost')[0]).toMatchObject({ inputTokens: 7, outputTokens: 3, model: 'm' });
    expect(of(events, 'cost')[0]?.cumulative).toBeUndefined();
  });

  it('MCP tools: mcp_tool_call_start and mcp_tool_result next to the generic tool events', () => {
    const name = 'mcp__agent-mux__write_file';
    const { events } = run([
      json(init()),
      json(assistant([{ type: 'tool_use', id: 'toolu_m', name, input: { path: 'a.txt' } }])),
      json(toolResult('toolu_m', [{ type: 'text', text: 'written' }])),
    ]);
    expect(of(events, 'mcp_tool_call_start')).toEqual([
      {
        type: 'mcp_tool_call_start',
        toolCallId: 'toolu_m',
        server: 'agent-mux',
        toolName: 'write_file',
        input: { path: 'a.txt' },
      },
    ]);
    expect(of(events, 'mcp_tool_result')).toEqual([
      {
        type: 'mcp_tool_result',
        toolCallId: 'toolu_m',
        server: 'agent-mux',
        toolName: 'write_file',
        output: 'written',
        isError: false,
      },
    ]);
    expect(of(events, 'tool_result')[0]).toMatchObject({ toolCallId: 'toolu_m', toolName: name });
  });

  it('splits mcp__<server>__<tool> names', () => {
    expect(mcpName('mcp__github__create_issue')).toEqual({ server: 'github', tool: 'create_issue' });
    expect(mcpName('mcp__a__b__c')).toEqual({ server: 'a', tool: 'b__c' });
    expect(mcpName('Bash')).toBeUndefined();
    expect(mcpName('mcp__only')).toBeUndefined();
  });

  it('a denied tool result is an error result', () => {
    const { events } = run([
      json(assistant([{ type: 'tool_use', id: 't', name: 'Bash', input: { command: 'rm -rf /' } }])),
      json({ type: 'system', subtype: 'permission_denied', tool_name: 'Bash', tool_use_id: 't', message: 'denied' }),
      json(toolResult('t', 'Permission to use Bash with command rm -rf / has been denied.', true)),
    ]);
    expect(of(events, 'tool_result')[0]).toMatchObject({ isError: true, output: expect.stringContaining('denied') });
  });

  it('a tool result for an unknown call still gets a start and a ready first', () => {
    const { events } = run([json(toolResult('ghost', 'x'))]);
    expect(types(events)).toEqual(['tool_call_start', 'tool_call_ready', 'tool_result']);
  });

  it('api_retry on 429 is a rate_limit_error with the delay; other retries are debug only', () => {
    const retry = (status: number, error: string) => ({
      type: 'system',
      subtype: 'api_retry',
      attempt: 2,
      max_retries: 10,
      retry_delay_ms: 1181,
      error_status: status,
      error,
    });
    expect(run([json(retry(429, 'rate_limit'))]).events).toEqual([
      { type: 'rate_limit_error', message: 'rate limited by the model API (retry 2 of 10)', retryAfterMs: 1181 },
    ]);
    expect(run([json(retry(529, 'overloaded'))]).events).toEqual([]);
    expect(types(run([json(retry(529, 'overloaded'))], { debug: true }).events)).toEqual(['debug']);
  });

  it('context too long → context_exceeded; other API errors → agent_error; each reported once', () => {
    const apiError = (text: string, status: number) =>
      assistant([{ type: 'text', text }], 'e1', {
        error: 'invalid_request',
        is_api_error_message: true,
        api_error_status: status,
      });
    const ctx = run([
      json(apiError('Prompt is too long: 210000 tokens > 200000 maximum', 400)),
      json(result({ is_error: true, result: 'Prompt is too long', api_error_status: 400 })),
    ]);
    expect(of(ctx.events, 'context_exceeded')).toEqual([
      {
        type: 'context_exceeded',
        message: 'Prompt is too long: 210000 tokens > 200000 maximum',
        usedTokens: 210000,
        maxTokens: 200000,
      },
    ]);
    expect(of(ctx.events, 'error')).toHaveLength(0);
    const other = run([json(result({ is_error: true, result: 'API Error: 500 boom', api_error_status: 500 }))]);
    expect(of(other.events, 'error')).toEqual([
      { type: 'error', code: 'agent_error', message: 'API Error: 500 boom', recoverable: false },
    ]);
    expect(other.state.outcome).toEqual({ status: 'failed', message: 'API Error: 500 boom' });
  });

  it('error_max_turns: a failed outcome from the errors list', () => {
    const { state, events } = run([
      json(
        result({
          subtype: 'error_max_turns',
          is_error: true,
          result: undefined,
          errors: ['Reached maximum number of turns (1)'],
        }),
      ),
    ]);
    expect(state.outcome).toEqual({ status: 'failed', message: 'Reached maximum number of turns (1)' });
    expect(of(events, 'turn_end')[0]).toMatchObject({ isError: true, stopReason: 'end_turn' });
  });

  it('sums per-turn usage into a cumulative run total (model_usage_since_last_result), not the session total', () => {
    const turn = (usd: number) =>
      result({
        total_cost_usd: 99,
        modelUsage: { m: { inputTokens: 1000, outputTokens: 1000, costUSD: 99 } },
        model_usage_since_last_result: {
          m: { inputTokens: 10, outputTokens: 5, cacheReadInputTokens: 2, cacheCreationInputTokens: 1, costUSD: usd },
        },
      });
    const { events } = run([json(turn(0.5)), json(turn(0.25))], { request: { resumeSessionId: 'sess-1' } });
    expect(of(events, 'cost')).toEqual([
      {
        type: 'cost',
        inputTokens: 10,
        outputTokens: 5,
        cacheReadTokens: 2,
        cacheWriteTokens: 1,
        model: 'm',
        usd: 0.5,
        cumulative: true,
      },
      {
        type: 'cost',
        inputTokens: 20,
        outputTokens: 10,
        cacheReadTokens: 4,
        cacheWriteTokens: 2,
        model: 'm',
        usd: 0.75,
        cumulative: true,
      },
    ]);
  });

  it('without per-turn usage: a resumed session total is not taken as this run’s USD', () => {
    const { events } = run([json(result())], { request: { resumeSessionId: 'old' } });
    expect(of(events, 'cost')[0]).toMatchObject({ inputTokens: 10, usd: undefined, cumulative: true });
    const fresh = run([json(result())]);
    expect(of(fresh.events, 'cost')[0]).toMatchObject({ usd: 0.01 });
  });

  it('unknown records are dropped, or debug in debug mode; plain text is a log line', () => {
    expect(run([json({ type: 'rate_limit_event', info: {} })]).events).toEqual([]);
    expect(types(run([json({ type: 'rate_limit_event' })], { debug: true }).events)).toEqual(['debug']);
    expect(run([json([1, 2])]).events).toEqual([]);
    expect(run([{ kind: 'text', line: 'Warning: something' }]).events).toEqual([
      { type: 'log', source: 'stdout', line: 'Warning: something' },
    ]);
    expect(run([{ kind: 'text', line: '   ' }]).events).toEqual([]);
  });

  it('malformed records become recoverable malformed_record errors and never throw', () => {
    const bad = [
      { type: 'assistant' },
      { type: 'user', message: 'x' },
      { type: 'stream_event' },
      { type: 'stream_event', event: { type: 'content_block_start', index: 0, content_block: { type: 'tool_use' } } },
      { type: 'result', usage: 'nope', modelUsage: [1] },
      { type: 'system', subtype: null },
    ];
    for (const value of bad) {
      // Straight through `translate`, without the pipeline's guard: a throw would fail here.
      expect(() => run([json(value)])).not.toThrow();
      const { events } = run([json(value)]);
      for (const e of events) {
        expect(['error', 'turn_start', 'message_start', 'cost', 'turn_end', 'message_stop']).toContain(e.type);
        if (e.type === 'error') expect(e.code, JSON.stringify(value)).not.toBe('internal');
      }
    }
    for (const value of [5, null, [1], { type: 42 }, { type: 'nope' }]) {
      expect(run([json(value)]).events).toEqual([]);
      expect(types(run([json(value)], { debug: true }).events)).toEqual(['debug']);
    }
    expect(of(run([json({ type: 'assistant' })]).events, 'error')[0]).toMatchObject({
      code: 'malformed_record',
      recoverable: true,
    });
  });

  it('finish closes an open message and readies a started tool call', () => {
    const state = claudeTranslator.init({ debug: false });
    claudeTranslator.translate(json(se({ type: 'message_start', message: { id: 'm1' } })), state);
    claudeTranslator.translate(
      json(
        se({
          type: 'content_block_start',
          index: 0,
          content_block: { type: 'tool_use', id: 't1', name: 'Bash', input: {} },
        }),
      ),
      state,
    );
    claudeTranslator.translate(
      json(
        se({
          type: 'content_block_delta',
          index: 0,
          delta: { type: 'input_json_delta', partial_json: '{"command":"ls"}' },
        }),
      ),
      state,
    );
    const out = claudeTranslator.finish?.({ exitCode: null, signal: 'SIGTERM' }, state) ?? [];
    expect(out).toEqual([
      { type: 'message_stop', messageId: 'm1', text: undefined },
      { type: 'tool_call_ready', toolCallId: 't1', toolName: 'Bash', input: { command: 'ls' } },
    ]);
  });
});

describe('claudeRecord', () => {
  it('checks by hand exactly what the schema checks', () => {
    expectEdgeCheckAgrees({
      malformed: claudeMalformed,
      schema: claudeRecordSchema,
      check: claudeRecord,
      streams: ['claude'],
    });
  });
});

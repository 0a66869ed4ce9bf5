import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { qwenTranslator } from '../../../../src/adapters/agents/qwen/qwen-translator.ts';
import type { NativeRecord, RunRequest } from '../../../../src/core/adapter/index.ts';
import type { EventDraft } from '../../../../src/core/events/index.ts';

const json = (value: unknown): NativeRecord => ({ kind: 'json', value });
const stream = (name: string) => new URL(`../../../fixtures/streams/qwen/${name}`, import.meta.url);

function run(records: NativeRecord[], options: { debug?: boolean; request?: Partial<RunRequest> } = {}) {
  const request = options.request ? ({ prompt: 'x', cwd: '/w', ...options.request } as RunRequest) : undefined;
  const state = qwenTranslator.init({ debug: options.debug ?? false, request });
  const events: EventDraft[] = [];
  for (const record of records) events.push(...qwenTranslator.translate(record, state));
  events.push(...(qwenTranslator.finish?.({ exitCode: 0, signal: null }, state) ?? []));
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
const sid = 'f1de635e-6298-4b55-b348-179d4731ad19';
const init = { type: 'system', subtype: 'init', session_id: sid, cwd: '/w', model: 'qwen3-coder-plus', tools: [] };
const assistantText = (text: string) => ({
  type: 'assistant',
  session_id: sid,
  parent_tool_use_id: null,
  message: {
    id: 'm1',
    type: 'message',
    role: 'assistant',
    model: 'qwen3-coder-plus',
    content: [{ type: 'text', text }],
    usage: { input_tokens: 0, output_tokens: 0 },
  },
});
const errorResult = (message: string) => ({
  type: 'result',
  subtype: 'error_during_execution',
  session_id: sid,
  is_error: true,
  duration_ms: 5,
  num_turns: 1,
  usage: { input_tokens: 0, output_tokens: 0, cache_read_input_tokens: 0 },
  permission_denials: [],
  error: { message },
});

describe('qwenTranslator', () => {
  it('translates the recorded tool run (Claude Code stream-json with partial messages)', () => {
    const { events, state } = recorded('tool.jsonl');
    const distinct = types(events).filter(
      (t, i, all) => !['text_delta', 'tool_input_delta'].includes(t) || all[i - 1] !== t,
    );
    expect(distinct).toEqual([
      'session_start',
      'turn_start',
      'message_start',
      'tool_call_start',
      'tool_input_delta',
      'tool_call_ready',
      'message_stop',
      'tool_result',
      'message_start',
      'text_delta',
      'message_stop',
      'cost',
      'turn_end',
    ]);
    expect(events.find((e) => e.type === 'tool_call_ready')).toMatchObject({
      toolName: 'run_shell_command',
      input: { command: 'echo agent-mux-live' },
    });
    expect(events.find((e) => e.type === 'tool_result')).toMatchObject({ output: 'agent-mux-live', isError: false });
    expect(events.find((e) => e.type === 'cost')).toMatchObject({ cumulative: true, outputTokens: 48 });
    expect(state.outcome).toMatchObject({
      status: 'completed',
      output: 'The command ran and printed agent-mux-live. Done.',
    });
  });

  it('turns the recorded 401 into one auth_error and a failed outcome', () => {
    const { events, state } = recorded('auth-401.jsonl');
    expect(events.filter((e) => e.type === 'auth_error')).toHaveLength(1);
    expect(events.some((e) => e.type === 'error')).toBe(false);
    expect(state.outcome).toMatchObject({ status: 'failed', message: expect.stringContaining('401') });
  });

  it('turns the recorded 429 into a rate_limit_error with the suggested delay', () => {
    const { events } = recorded('rate-429.jsonl');
    expect(events.filter((e) => e.type === 'rate_limit_error')).toEqual([
      { type: 'rate_limit_error', message: expect.stringContaining('429'), retryAfterMs: 1000 },
    ]);
  });

  it('reports an API error message once, without partial messages too', () => {
    const text = '[API Error: 401 Incorrect API key provided: sk-x.]';
    const { events, state } = run([json(init), json(assistantText(text)), json(errorResult(text))]);
    expect(events.filter((e) => e.type === 'auth_error')).toEqual([
      { type: 'auth_error', message: text, guidance: expect.any(String) },
    ]);
    expect(state.outcome).toEqual({ status: 'failed', message: text });
  });

  it('reads an API error message split over text blocks, and only a message that is one', () => {
    const blocks = (...texts: string[]) => ({
      type: 'assistant',
      session_id: sid,
      message: { role: 'assistant', content: texts.map((text) => ({ type: 'text', text })) },
    });
    const split = run([json(init), json(blocks('[API', ' Error: 429 Too Many Requests'))]);
    expect(split.events.filter((e) => e.type === 'rate_limit_error')).toEqual([
      { type: 'rate_limit_error', message: '[API Error: 429 Too Many Requests' },
    ]);
    for (const texts of [
      ['The [API Error: 429] is what qwen prints.'],
      ['[API'],
      ['[API', ' notes'],
      ['', '[API Error: 429'],
    ]) {
      const { events } = run([json(init), json(blocks(...texts))]);
      expect(events.some((e) => e.type === 'rate_limit_error')).toBe(texts.join('').startsWith('[API Error'));
    }
  });

  it('reports qwen retries as rate limits with their delay', () => {
    const { events } = run([
      json(init),
      json({
        type: 'system',
        subtype: 'retry',
        session_id: sid,
        data: { reason: 'retry', attempt: 1, maxRetries: 10, delayMs: 60000 },
      }),
      json({ type: 'system', subtype: 'retry', session_id: sid, data: { reason: 'retry', discardedToolCalls: 0 } }),
    ]);
    expect(events.filter((e) => e.type === 'rate_limit_error')).toEqual([
      { type: 'rate_limit_error', message: expect.stringContaining('attempt 1 of 10'), retryAfterMs: 60000 },
    ]);
  });

  it('classifies an error result without an API error message before it', () => {
    const { events, state } = run([json(init), json(errorResult('context length exceeded: 140000 tokens'))]);
    expect(events.some((e) => e.type === 'context_exceeded')).toBe(true);
    expect(state.outcome?.status).toBe('failed');
    const other = run([json(init), json(errorResult('Reached max session turns'))]);
    expect(other.events).toContainEqual({
      type: 'error',
      code: 'agent_error',
      message: 'Reached max session turns',
      recoverable: false,
    });
  });

  it('reports a resumed and a forked session', () => {
    expect(run([json(init)], { request: { resumeSessionId: sid } }).events[1]).toEqual({
      type: 'session_resume',
      sessionId: sid,
      previousSessionId: sid,
    });
    expect(run([json(init)], { request: { resumeSessionId: 'old', fork: true } }).events[1]).toEqual({
      type: 'session_fork',
      sessionId: sid,
      forkedFrom: 'old',
    });
  });

  it('reports MCP tools (mcp__<server>__<tool>) as MCP calls', () => {
    const { events } = run([
      json(init),
      json({
        type: 'assistant',
        session_id: sid,
        message: {
          id: 'm2',
          role: 'assistant',
          content: [{ type: 'tool_use', id: 'c1', name: 'mcp__agentmux__read_task', input: {} }],
        },
      }),
      json({
        type: 'user',
        session_id: sid,
        message: {
          role: 'user',
          content: [{ type: 'tool_result', tool_use_id: 'c1', is_error: false, content: 'task' }],
        },
      }),
    ]);
    expect(events).toContainEqual({
      type: 'mcp_tool_call_start',
      toolCallId: 'c1',
      server: 'agentmux',
      toolName: 'read_task',
      input: {},
    });
    expect(events).toContainEqual(
      expect.objectContaining({
        type: 'mcp_tool_result',
        toolCallId: 'c1',
        server: 'agentmux',
        toolName: 'read_task',
        isError: false,
      }),
    );
  });

  it('drops qwen-only stream events and unknown records unless debugging; plain text is text', () => {
    const goal = { type: 'stream_event', session_id: sid, event: { type: 'goal_state', goal_state: { v: 2 } } };
    expect(run([json(goal)]).events).toEqual([]);
    expect(run([json(goal)], { debug: true }).events[0]).toMatchObject({ type: 'debug' });
    expect(run([json({ type: 'mystery' })]).events).toEqual([]);
    expect(run([{ kind: 'text', line: 'Ripgrep not available' }]).events).toEqual([
      { type: 'log', source: 'stdout', line: 'Ripgrep not available' },
    ]);
  });

  it('answers odd records with nothing, a debug event or a malformed_record error, unguarded', () => {
    const state = qwenTranslator.init({ debug: true });
    const odd: [unknown, string[]][] = [
      [null, ['debug']],
      [3, ['debug']],
      [{ type: 'assistant', message: 5 }, ['error']],
      [{ type: 'result', is_error: true, error: 7 }, ['error', 'turn_end']],
      [{ type: 'system', subtype: 'retry', data: null }, ['debug']],
      [{ type: 'system', subtype: 'retry', data: { attempt: 'two' } }, ['debug']],
      [{ type: 'stream_event', event: 'x' }, ['debug']],
    ];
    for (const [value, expected] of odd) {
      let drafts: EventDraft[] = [];
      expect(() => {
        drafts = qwenTranslator.translate(json(value), state);
      }).not.toThrow();
      expect(types(drafts), JSON.stringify(value)).toEqual(expected);
      expect(drafts.filter((d) => d.type === 'error' && d.code === 'internal')).toEqual([]);
    }
    const assistant = qwenTranslator.translate(json({ type: 'assistant', message: 5 }), state);
    expect(assistant).toMatchObject([{ type: 'error', code: 'malformed_record', recoverable: true }]);
  });
});

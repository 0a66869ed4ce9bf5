import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { classifyApiError } from '../../../../src/adapters/agents/gemini/gemini-error-table.ts';
import {
  geminiMalformed,
  geminiRecord,
  geminiRecordSchema,
} from '../../../../src/adapters/agents/gemini/gemini-record.ts';
import { geminiMcpName, geminiTranslator } from '../../../../src/adapters/agents/gemini/gemini-translator.ts';
import { retryAfterMsOf } from '../../../../src/adapters/shared/provider-error.ts';
import type { NativeRecord, RunRequest } from '../../../../src/core/adapter/index.ts';
import type { EventDraft } from '../../../../src/core/events/index.ts';
import { expectEdgeCheckAgrees } from '../../../support/edge-check-agreement.ts';

const json = (value: unknown): NativeRecord => ({ kind: 'json', value });
const stream = (name: string) => new URL(`../../../fixtures/streams/gemini/${name}`, import.meta.url);

function run(records: NativeRecord[], options: { debug?: boolean; request?: Partial<RunRequest> } = {}) {
  const request = options.request ? ({ prompt: 'x', cwd: '/w', ...options.request } as RunRequest) : undefined;
  const state = geminiTranslator.init({ debug: options.debug ?? false, request });
  const events: EventDraft[] = [];
  for (const record of records) events.push(...geminiTranslator.translate(record, state));
  events.push(...(geminiTranslator.finish?.({ exitCode: 0, signal: null }, state) ?? []));
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
const init = { type: 'init', timestamp: 't', session_id: 'sess-1', model: 'gemini-2.5-flash' };
const result = (stats: object = {}) => ({ type: 'result', timestamp: 't', status: 'success', stats });

describe('geminiTranslator', () => {
  it('translates the recorded tool run: session, shell call, answer, cumulative cost, outcome', () => {
    const { events, state } = recorded('tool.jsonl');
    const distinct = types(events).filter((t, i, all) => t !== 'text_delta' || all[i - 1] !== 'text_delta');
    expect(distinct).toEqual([
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
    expect(events.find((e) => e.type === 'tool_call_ready')).toMatchObject({
      toolName: 'run_shell_command',
      input: { command: 'echo agent-mux-live' },
    });
    expect(events.find((e) => e.type === 'tool_result')).toMatchObject({ output: 'agent-mux-live', isError: false });
    expect(events.find((e) => e.type === 'message_stop')).toMatchObject({
      text: 'The command ran and printed agent-mux-live. Done.',
    });
    expect(events.find((e) => e.type === 'cost')).toEqual({
      type: 'cost',
      inputTokens: 160,
      outputTokens: 48,
      cacheReadTokens: 80,
      model: 'gemini-2.5-flash',
      cumulative: true,
    });
    expect(state.outcome).toEqual({ status: 'completed' });
    expect(state.sessionId).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('reports the resumed session when the request resumed it', () => {
    const { events } = run([json(init)], { request: { resumeSessionId: 'sess-1' } });
    expect(events.slice(0, 2)).toEqual([
      { type: 'session_start', sessionId: 'sess-1', model: 'gemini-2.5-flash', cwd: '/w' },
      { type: 'session_resume', sessionId: 'sess-1', previousSessionId: 'sess-1' },
    ]);
  });

  it('turns the recorded 401 into an auth_error and a failed outcome', () => {
    const { events, state } = recorded('auth-401.jsonl');
    expect(types(events)).toEqual(['session_start', 'turn_start', 'auth_error', 'turn_end']);
    expect(state.outcome?.status).toBe('failed');
    expect(state.outcome?.message).toContain('API key not valid');
  });

  it('turns the recorded 429 into a rate_limit_error with the suggested delay', () => {
    const { events } = recorded('rate-429.jsonl');
    expect(events.find((e) => e.type === 'rate_limit_error')).toMatchObject({ retryAfterMs: 1000 });
  });

  it('classifies context overflow and other failures', () => {
    const overflow = run([
      json(init),
      json({
        type: 'result',
        status: 'error',
        error: {
          type: 'unknown',
          message: 'The input token count (1200000) exceeds the maximum number of tokens allowed (1048576).',
        },
        stats: {},
      }),
    ]);
    expect(overflow.events.some((e) => e.type === 'context_exceeded')).toBe(true);
    const other = run([
      json({ type: 'result', status: 'error', error: { type: 'FatalToolExecutionError', message: 'disk full' } }),
    ]);
    expect(other.events).toContainEqual({
      type: 'error',
      code: 'agent_error',
      message: 'disk full',
      recoverable: false,
    });
    expect(other.events.find((e) => e.type === 'turn_end')).toMatchObject({
      isError: true,
      stopReason: 'FatalToolExecutionError',
    });
  });

  it('keeps warnings recoverable and reports a typed error record once', () => {
    const { events } = run([
      json(init),
      json({ type: 'error', timestamp: 't', severity: 'warning', message: 'Loop detected, stopping execution' }),
      json({ type: 'error', timestamp: 't', severity: 'error', message: '[API Error: 429 quota]' }),
      json({
        type: 'result',
        status: 'error',
        error: { type: 'unknown', message: '[API Error: 429 quota]' },
        stats: {},
      }),
    ]);
    expect(events).toContainEqual({
      type: 'error',
      code: 'agent_error',
      message: 'Loop detected, stopping execution',
      recoverable: true,
    });
    expect(events.filter((e) => e.type === 'rate_limit_error')).toHaveLength(1);
  });

  it('reports MCP tool calls under their server and tool names', () => {
    const { events } = run([
      json(init),
      json({ type: 'tool_use', tool_name: 'mcp_agentmux_read_task', tool_id: 't1', parameters: {} }),
      json({ type: 'tool_result', tool_id: 't1', status: 'success', output: '{"prompt":"x"}' }),
      json({ type: 'tool_use', tool_name: 'mcp_agentmux_write_file', tool_id: 't2', parameters: { path: 'a' } }),
      json({
        type: 'tool_result',
        tool_id: 't2',
        status: 'error',
        output: '',
        error: { type: 'x', message: 'denied' },
      }),
      json(result()),
    ]);
    expect(events).toContainEqual({
      type: 'mcp_tool_call_start',
      toolCallId: 't1',
      server: 'agentmux',
      toolName: 'read_task',
      input: {},
    });
    expect(events).toContainEqual({
      type: 'mcp_tool_result',
      toolCallId: 't2',
      server: 'agentmux',
      toolName: 'write_file',
      output: 'denied',
      isError: true,
    });
    expect(geminiMcpName('run_shell_command')).toBeUndefined();
    expect(geminiMcpName('mcp_github_list_issues')).toEqual({ server: 'github', tool: 'list_issues' });
  });

  it('announces a tool result whose call it never saw, so ids stay matched', () => {
    const { events } = run([json({ type: 'tool_result', tool_id: 'x', status: 'success', output: 'ok' })]);
    expect(types(events)).toEqual(['tool_call_start', 'tool_call_ready', 'tool_result']);
  });

  it('closes an open message at a tool call and at the end of the stream', () => {
    const { events } = run([
      json(init),
      json({ type: 'message', role: 'assistant', content: 'Let me look. ', delta: true }),
      json({ type: 'tool_use', tool_name: 'glob', tool_id: 'g', parameters: { pattern: '*' } }),
      json({ type: 'message', role: 'assistant', content: 'Done', delta: true }),
    ]);
    expect(types(events)).toEqual([
      'session_start',
      'turn_start',
      'message_start',
      'text_delta',
      'message_stop',
      'tool_call_start',
      'tool_call_ready',
      'message_start',
      'text_delta',
      'message_stop',
    ]);
  });

  it('treats plain text lines as text, drops unknown records unless debugging, flags malformed ones', () => {
    expect(run([{ kind: 'text', line: 'Loaded cached credentials.' }]).events).toEqual([
      { type: 'log', source: 'stdout', line: 'Loaded cached credentials.' },
    ]);
    expect(run([json({ type: 'telemetry', x: 1 })]).events).toEqual([]);
    expect(run([json({ type: 'telemetry', x: 1 })], { debug: true }).events[0]).toMatchObject({ type: 'debug' });
    expect(run([json([1, 2])]).events).toEqual([]);
    expect(run([json({ type: 'tool_use', tool_name: 'x' })]).events[0]).toMatchObject({ code: 'malformed_record' });
    expect(run([json({ type: 'message', role: 'assistant', content: 3 })]).events[0]).toMatchObject({
      code: 'malformed_record',
    });
    expect(run([json({ type: 'message', role: 'user', content: 'hi' })]).events).toEqual([]);
  });

  it('answers odd records with nothing, a debug event or a malformed_record error, unguarded', () => {
    const state = geminiTranslator.init({ debug: true });
    const odd: [unknown, string[]][] = [
      [null, ['debug']],
      [1, ['debug']],
      ['x', ['debug']],
      [{ type: 'result', stats: { input_tokens: 'x' } }, ['turn_end']],
      [{ type: 'init', session_id: 5 }, ['turn_start']],
      [{ type: 'tool_result', tool_id: 7 }, ['error']],
      [{ type: 'message', role: 'assistant', content: { text: 'x' } }, ['error']],
      [{ type: 'error', message: 42 }, ['error']],
      [{ type: 7 }, ['debug']],
    ];
    for (const [value, expected] of odd) {
      let drafts: EventDraft[] = [];
      expect(() => {
        drafts = geminiTranslator.translate(json(value), state);
      }).not.toThrow();
      expect(types(drafts), JSON.stringify(value)).toEqual(expected);
      expect(drafts.filter((d) => d.type === 'error' && d.code === 'internal')).toEqual([]);
    }
  });
});

describe('classifyApiError', () => {
  it('reads statuses and retry delays from the texts both CLIs print', () => {
    expect(classifyApiError('[API Error: 401 Incorrect API key provided]').type).toBe('auth_error');
    expect(classifyApiError('{"error":{"code":403,"status":"PERMISSION_DENIED"}}').type).toBe('auth_error');
    expect(classifyApiError('[API Error: 429 Rate limit reached. Please try again in 20s.]')).toMatchObject({
      type: 'rate_limit_error',
      retryAfterMs: 20_000,
    });
    expect(classifyApiError('context length exceeded').type).toBe('context_exceeded');
    expect(classifyApiError('[API Error: 500 boom]').type).toBe('error');
    expect(retryAfterMsOf('"retryDelay": "2.5s"')).toBe(2500);
    expect(retryAfterMsOf('nothing here')).toBeUndefined();
  });
});

describe('geminiRecord', () => {
  it('checks by hand exactly what the schema checks', () => {
    expectEdgeCheckAgrees({
      malformed: geminiMalformed,
      schema: geminiRecordSchema,
      check: geminiRecord,
      streams: ['gemini'],
    });
  });
});

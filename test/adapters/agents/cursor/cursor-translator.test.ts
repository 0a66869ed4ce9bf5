import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { allowsAll, cursorPlan } from '../../../../src/adapters/agents/cursor/cursor-plan.ts';
import {
  cursorMalformed,
  cursorRecord,
  cursorRecordSchema,
} from '../../../../src/adapters/agents/cursor/cursor-record.ts';
import {
  type CursorTranslatorState,
  cursorTranslator,
} from '../../../../src/adapters/agents/cursor/cursor-translator.ts';
import { cursorAdapter } from '../../../../src/adapters/agents/cursor/index.ts';
import type { LaunchContext, NativeRecord, RunRequest } from '../../../../src/core/adapter/index.ts';
import type { EventDraft } from '../../../../src/core/events/index.ts';
import { expectEdgeCheckAgrees } from '../../../support/edge-check-agreement.ts';

const S = 's-1';
function run(records: unknown[], options: { debug?: boolean; request?: RunRequest } = {}) {
  const state = cursorTranslator.init({ debug: options.debug ?? false, request: options.request });
  const events: EventDraft[] = [];
  for (const value of records) {
    const record: NativeRecord = typeof value === 'string' ? { kind: 'text', line: value } : { kind: 'json', value };
    events.push(...cursorTranslator.translate(record, state));
  }
  events.push(...(cursorTranslator.finish?.({ exitCode: 0, signal: null }, state) ?? []));
  return { events, state };
}
const init = { type: 'system', subtype: 'init', apiKeySource: 'env', cwd: '/w', session_id: S, model: 'Auto' };
const assistant = (text: string, partial = false) => ({
  type: 'assistant',
  message: { role: 'assistant', content: [{ type: 'text', text }] },
  session_id: S,
  ...(partial ? { timestamp_ms: 1 } : {}),
});
const tool = (subtype: string, id: string, body: Record<string, unknown>) => ({
  type: 'tool_call',
  subtype,
  call_id: id,
  tool_call: body,
  session_id: S,
});

describe('cursor translator (evidence-only)', () => {
  it('translates the documented stream', () => {
    const lines = readFileSync(new URL('../../../fixtures/streams/cursor/docs-tool.jsonl', import.meta.url), 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as unknown);
    const { events, state } = run(lines);
    const text = events.flatMap((e) => (e.type === 'text_delta' ? [e.delta] : [])).join('');
    expect(text).toBe("I'll run the command.It printed agent-mux-live.");
    expect(events.filter((e) => e.type === 'message_stop')).toHaveLength(2);
    expect(events.find((e) => e.type === 'tool_call_ready')).toMatchObject({
      toolName: 'shell',
      input: { command: 'echo agent-mux-live' },
    });
    expect(events.find((e) => e.type === 'tool_result')).toMatchObject({ output: 'agent-mux-live\n', isError: false });
    expect(events.find((e) => e.type === 'cost')).toMatchObject({
      inputTokens: 1200,
      outputTokens: 42,
      cacheReadTokens: 800,
    });
    expect(events.at(-1)).toMatchObject({ type: 'turn_end', isError: false, durationMs: 2345 });
    expect(state).toMatchObject({
      sessionId: '7d1c1c3e-5b0a-4a54-9a7e-3f2f3c9f6a10',
      outcome: { status: 'completed' },
    });
  });

  it('handles whole messages without --stream-partial-output', () => {
    const { events } = run([init, assistant('one'), assistant('two')]);
    expect(events.map((e) => e.type)).toEqual([
      'session_start',
      'turn_start',
      'message_start',
      'text_delta',
      'message_stop',
      'message_start',
      'text_delta',
      'message_stop',
      'turn_end',
    ]);
  });

  it('announces a resumed chat as session_resume', () => {
    const { events } = run([init], { request: { prompt: 'x', cwd: '/w', resumeSessionId: S } });
    expect(events[0]).toEqual({ type: 'session_resume', sessionId: S, previousSessionId: S });
  });

  it('maps MCP tool calls to mcp_tool_call_start / mcp_tool_result', () => {
    const args = {
      name: 'agent-mux-read_task',
      args: { q: 1 },
      toolName: 'read_task',
      providerIdentifier: 'agent-mux',
    };
    const { events } = run([
      tool('started', 'c1', { mcpToolCall: { args } }),
      tool('completed', 'c1', {
        mcpToolCall: { args, result: { success: { content: [{ text: { text: 'ok' } }], isError: false } } },
      }),
    ]);
    expect(events).toContainEqual({
      type: 'mcp_tool_call_start',
      toolCallId: 'c1',
      server: 'agent-mux',
      toolName: 'read_task',
      input: { q: 1 },
    });
    expect(events).toContainEqual({
      type: 'mcp_tool_result',
      toolCallId: 'c1',
      server: 'agent-mux',
      toolName: 'read_task',
      output: 'ok',
      isError: false,
    });
  });

  it('reports rejected and failed shell commands as errors', () => {
    const { events } = run([
      tool('completed', 'a', {
        shellToolCall: { args: { command: 'rm x' }, result: { rejected: { command: 'rm x', reason: 'not allowed' } } },
      }),
      tool('completed', 'b', {
        shellToolCall: { args: { command: 'false' }, result: { success: { exitCode: 1, stdout: '', stderr: 'no' } } },
      }),
      tool('completed', 'c', { function: { name: 'lookup', arguments: '{"q":1}' } }),
    ]);
    const results = events.filter((e) => e.type === 'tool_result');
    expect(results.map((e) => e.type === 'tool_result' && [e.output, e.isError])).toEqual([
      ['not allowed', true],
      ['no', true],
      ['', false],
    ]);
    expect(events.find((e) => e.type === 'tool_call_ready' && e.toolCallId === 'c')).toMatchObject({ input: { q: 1 } });
  });

  it('maps error results and stderr lines to typed errors', () => {
    const { events, state } = run([
      init,
      { type: 'result', subtype: 'error', is_error: true, result: 'Rate limit exceeded', session_id: S },
    ]);
    expect(events).toContainEqual({ type: 'rate_limit_error', message: 'Rate limit exceeded' });
    expect(state.outcome).toEqual({ status: 'failed', message: 'Rate limit exceeded' });
    const st = cursorTranslator.init({ debug: false });
    expect(
      cursorTranslator.stderr?.('Error: Authentication required. Please run cursor-agent login', st)[0],
    ).toMatchObject({ type: 'auth_error' });
    expect(cursorTranslator.stderr?.('context length exceeded', st)[0]).toMatchObject({ type: 'context_exceeded' });
    expect(cursorTranslator.stderr?.('warming up', st)[0]).toEqual({
      type: 'log',
      source: 'stderr',
      line: 'warming up',
    });
  });

  it('closes what a stream cut short left open', () => {
    const { events } = run([
      init,
      assistant('half', true),
      tool('started', 't', { readToolCall: { args: { path: 'a' } } }),
    ]);
    expect(events.slice(-3).map((e) => e.type)).toEqual(['tool_call_ready', 'tool_result', 'turn_end']);
  });

  it('keeps open only the calls not answered yet (a result record does not walk every call of the run)', () => {
    const records: unknown[] = [init];
    for (let i = 0; i < 200; i++) {
      const body = { shellToolCall: { args: { command: 'true' } } };
      records.push(tool('started', `t${i}`, body));
      records.push(
        tool('completed', `t${i}`, { shellToolCall: { ...body.shellToolCall, result: { success: { exitCode: 0 } } } }),
      );
      records.push({ type: 'result', subtype: 'success', is_error: false, result: 'ok', session_id: S });
    }
    records.push(tool('started', 'left', { readToolCall: { args: { path: 'a' } } }));
    const { events, state } = run(records);
    expect(state.unanswered.size).toBe(0);
    expect(events.filter((e) => e.type === 'tool_result')).toHaveLength(201);
    const failed = events.flatMap((e) => (e.type === 'tool_result' && e.isError ? [e.toolCallId] : []));
    expect(failed).toEqual(['left']);
  });

  it('drops unknown records unless debugging, flags malformed ones, keeps text as output', () => {
    expect(run([{ type: 'brand_new' }]).events).toEqual([]);
    expect(run([{ type: 'brand_new' }], { debug: true }).events[0]).toMatchObject({ type: 'debug' });
    expect(run([{ nope: 1 }]).events[0]).toMatchObject({ code: 'malformed_record' });
    expect(run([tool('started', 'x', { weird: 1 })]).events[0]).toMatchObject({ code: 'malformed_record' });
    expect(run(['plain text']).events).toEqual([{ type: 'log', source: 'stdout', line: 'plain text' }]);
    const state: CursorTranslatorState = cursorTranslator.init({ debug: false });
    const odd: [unknown, string[]][] = [
      [null, []],
      [3, []],
      [[], []],
      [{ type: 'assistant', message: 7 }, []],
      [{ type: 7 }, ['error']],
      [{ type: 'tool_call', subtype: 'completed', tool_call: {} }, ['error']],
      [{ type: 'thinking', subtype: 'delta', text: 5 }, []],
      [{ type: 'result', usage: 'x' }, ['turn_end']],
      [{ type: 'tool_call', subtype: 'started', tool_call: { readToolCall: {} } }, ['error']],
      [{ type: 'tool_call', subtype: 'started', call_id: 'y' }, ['error']],
      [{ type: 'toString' }, []],
    ];
    for (const [value, expected] of odd) {
      let drafts: EventDraft[] = [];
      expect(() => {
        drafts = cursorTranslator.translate({ kind: 'json', value }, state);
      }).not.toThrow();
      expect(
        drafts.map((d) => d.type),
        JSON.stringify(value),
      ).toEqual(expected);
      expect(drafts.filter((d) => d.type === 'error' && d.code !== 'malformed_record')).toEqual([]);
    }
  });
});

describe('cursor records checked at the edge', () => {
  const draft = { type: 'error', code: 'malformed_record', recoverable: true, message: cursorMalformed.tool_call };
  const shell = { shellToolCall: { args: { command: 'true' } } };

  it('answers a tool_call without its call id or its tool_call object with a recoverable malformed_record', () => {
    const rows: [string, unknown][] = [
      ['no call_id', { type: 'tool_call', subtype: 'started', tool_call: shell }],
      ['an empty call_id', { type: 'tool_call', subtype: 'started', call_id: '', tool_call: shell }],
      ['a call_id of another type', { type: 'tool_call', subtype: 'started', call_id: 7, tool_call: shell }],
      ['no tool_call', { type: 'tool_call', subtype: 'started', call_id: 'c' }],
      ['a tool_call that is no object', { type: 'tool_call', subtype: 'started', call_id: 'c', tool_call: [shell] }],
    ];
    for (const [name, value] of rows) expect(run([value]).events, name).toEqual([draft]);
  });

  it('still takes the call id from tool_call.toolCallId when call_id is missing', () => {
    const value = { type: 'tool_call', subtype: 'started', tool_call: { toolCallId: 'in', ...shell } };
    expect(run([value]).events[0]).toEqual({ type: 'tool_call_start', toolCallId: 'in', toolName: 'shell' });
  });

  it('checks by hand exactly what the schema checks, and leaves the schema only what the hand check refuses', () => {
    expectEdgeCheckAgrees({
      malformed: cursorMalformed,
      schema: cursorRecordSchema,
      check: cursorRecord,
      streams: ['cursor'],
    });
  });
});

describe('cursor plan', () => {
  const ctx = (request: Partial<RunRequest>, policy?: LaunchContext['policy']): LaunchContext =>
    ({ request: { prompt: 'do $HOME {x}', cwd: '/w', ...request }, policy }) as LaunchContext;

  it('runs print mode with stream-json, the prompt last and literal (built-in plans are not template-expanded)', () => {
    const plan = cursorPlan('cursor-agent', ctx({ model: 'sonnet-4', resumeSessionId: 'abc' }, { default: 'allow' }));
    expect(plan.args).toEqual([
      '-p',
      '--output-format',
      'stream-json',
      '--stream-partial-output',
      '--trust',
      '--force',
      '--model',
      'sonnet-4',
      '--resume',
      'abc',
      '--workspace',
      '/w',
      'do $HOME {x}',
    ]);
  });

  it('forces tools only when the policy allows everything', () => {
    expect(allowsAll({ default: 'allow' })).toBe(true);
    expect(allowsAll({ default: 'allow', rules: [{ tool: 'Shell', decision: 'deny' }] })).toBe(false);
    expect(allowsAll({ default: 'ask' })).toBe(false);
    expect(allowsAll(undefined)).toBe(false);
  });

  it('says it is evidence-only', () => {
    expect(cursorAdapter().program?.verifiedLive).toBe(false);
    expect(cursorAdapter().detectAuth?.({ CURSOR_API_KEY: 'k' })).toMatchObject({
      status: 'authenticated',
      method: 'api_key',
    });
  });
});

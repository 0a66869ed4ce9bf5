import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { usageDrafts, usageRecordDrafts } from '../../../../src/adapters/agents/copilot/copilot-controller.ts';
import { permissionArgs } from '../../../../src/adapters/agents/copilot/copilot-plan.ts';
import {
  copilotMalformed,
  copilotRecord,
  copilotRecordSchema,
} from '../../../../src/adapters/agents/copilot/copilot-record.ts';
import {
  type CopilotTranslatorState,
  copilotTranslator,
} from '../../../../src/adapters/agents/copilot/copilot-translator.ts';
import { StreamLedger } from '../../../../src/adapters/shared/stream-ledger.ts';
import type { NativeRecord, RunRequest } from '../../../../src/core/adapter/index.ts';
import type { EventDraft } from '../../../../src/core/events/index.ts';
import { expectEdgeCheckAgrees } from '../../../support/edge-check-agreement.ts';

const fixture = (name: string) =>
  readFileSync(new URL(`../../../fixtures/streams/copilot/${name}`, import.meta.url), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as unknown);

function run(records: unknown[], options: { debug?: boolean; request?: RunRequest } = {}) {
  const state = copilotTranslator.init({ debug: options.debug ?? false, request: options.request });
  const events: EventDraft[] = [];
  for (const value of records) {
    const record: NativeRecord = typeof value === 'string' ? { kind: 'text', line: value } : { kind: 'json', value };
    events.push(...copilotTranslator.translate(record, state));
  }
  events.push(...(copilotTranslator.finish?.({ exitCode: 0, signal: null }, state) ?? []));
  return { events, state };
}

const ev = (type: string, data: Record<string, unknown> = {}) => ({
  type,
  data,
  id: 'x',
  timestamp: 't',
  parentId: null,
});

describe('copilot translator', () => {
  it('turns the recorded tool run into a tool call, its result, the answer and the session', () => {
    const { events, state } = run(fixture('tool.jsonl'));
    const types = events.map((e) => e.type);
    expect(types).toContain('tool_call_ready');
    const ready = events.find((e) => e.type === 'tool_call_ready');
    expect(ready).toMatchObject({ toolName: 'bash', input: { command: 'echo agent-mux-live' } });
    const result = events.find((e) => e.type === 'tool_result');
    expect(result).toMatchObject({ toolName: 'bash', isError: false });
    expect(String(result?.type === 'tool_result' && result.output)).toContain('agent-mux-live');
    expect(types.at(-1)).toBe('session_start');
    expect(state.outcome).toMatchObject({ status: 'completed' });
    expect(state.sessionId).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('reports a tool denied by --deny-tool as a failed tool result', () => {
    const { events } = run(fixture('denied.jsonl'));
    const result = events.find((e) => e.type === 'tool_result');
    expect(result).toMatchObject({ isError: true });
    expect(String(result?.type === 'tool_result' && result.output)).toMatch(/denied/);
  });

  it('turns a tool of the run MCP server into mcp_tool_call_start / mcp_tool_result (recorded)', () => {
    const { events } = run(fixture('mcp-tool.jsonl'));
    expect(events.find((e) => e.type === 'mcp_tool_call_start')).toMatchObject({
      server: 'agent-mux',
      toolName: 'read_task',
    });
    expect(events.find((e) => e.type === 'mcp_tool_result')).toMatchObject({ server: 'agent-mux', isError: false });
    expect(events.some((e) => e.type === 'tool_result')).toBe(false);
  });

  it('maps the recorded 401 to auth_error and a failed outcome', () => {
    const { events, state } = run(fixture('auth-401.jsonl'));
    expect(events.filter((e) => e.type === 'auth_error')).toHaveLength(1);
    expect(state.outcome?.status).toBe('failed');
    expect(state.outcome?.message).toMatch(/401/);
  });

  it('maps the recorded 429 to rate_limit_error', () => {
    const { events, state } = run(fixture('rate-429.jsonl'));
    const limits = events.filter((e) => e.type === 'rate_limit_error');
    expect(limits).toHaveLength(1);
    // "Please try again in 1s." → retryAfterMs; the run-dependent retry time is dropped.
    expect(limits[0]).toMatchObject({ retryAfterMs: 1000 });
    expect(limits[0]?.type === 'rate_limit_error' && limits[0].message).not.toMatch(/total retry wait time/);
    expect(state.outcome?.status).toBe('failed');
  });

  it('announces a resumed session as session_resume', () => {
    const request = { prompt: 'again', cwd: '/tmp', resumeSessionId: 'abc' };
    const { events } = run([{ type: 'result', sessionId: 'abc', exitCode: 0 }], { request });
    expect(events).toEqual([{ type: 'session_resume', sessionId: 'abc', previousSessionId: 'abc' }]);
  });

  it('maps context and other session errors', () => {
    const { events } = run([
      ev('session.error', { errorType: 'context_limit', message: 'too long' }),
      ev('session.error', { errorType: 'query', message: 'boom' }),
      ev('session.error', { errorType: 'rate_limit', message: 'slow down', retryAfterMs: 1500 }),
    ]);
    expect(events).toEqual([
      { type: 'context_exceeded', message: 'too long' },
      { type: 'error', code: 'agent_error', message: 'boom', recoverable: false },
      { type: 'rate_limit_error', message: 'slow down', retryAfterMs: 1500 },
    ]);
  });

  it('streams reasoning as thinking events and counts assistant.usage', () => {
    const { events, state } = run([
      ev('assistant.reasoning_delta', { reasoningId: 'r1', deltaContent: 'hmm' }),
      ev('assistant.reasoning', { reasoningId: 'r1', content: 'hmm' }),
      ev('assistant.usage', {
        model: 'gpt-5',
        inputTokens: 10,
        outputTokens: 3,
        cacheReadTokens: 2,
        reasoningTokens: 1,
      }),
    ]);
    expect(events).toEqual([
      { type: 'thinking_start', messageId: 'r1' },
      { type: 'thinking_delta', delta: 'hmm', messageId: 'r1' },
      { type: 'thinking_stop', messageId: 'r1', thinking: 'hmm' },
      {
        type: 'cost',
        inputTokens: 10,
        outputTokens: 3,
        cacheReadTokens: 2,
        cacheWriteTokens: undefined,
        thinkingTokens: 1,
        model: 'gpt-5',
      },
    ]);
    expect(state.sawUsage).toBe(true);
  });

  it('emits a whole message at once when not streamed, and closes what is left open', () => {
    const { events } = run([
      ev('assistant.message', { messageId: 'm1', content: 'hi', toolRequests: [] }),
      ev('assistant.message_start', { messageId: 'm2' }),
      ev('assistant.message_delta', { messageId: 'm2', deltaContent: 'cut' }),
      ev('assistant.tool_call_delta', { toolCallId: 't1', toolName: 'view', inputDelta: '{"pa' }),
    ]);
    expect(events.map((e) => e.type)).toEqual([
      'message_start',
      'text_delta',
      'message_stop',
      'message_start',
      'text_delta',
      'tool_call_start',
      'tool_input_delta',
      'message_stop',
      'tool_call_ready',
    ]);
  });

  it('drops unknown records unless debugging, and flags malformed ones', () => {
    expect(run([ev('session.something_new')]).events).toEqual([]);
    expect(run([ev('session.something_new')], { debug: true }).events[0]).toMatchObject({ type: 'debug' });
    expect(run([{ data: {} }]).events[0]).toMatchObject({ type: 'error', code: 'malformed_record' });
    expect(run([[1, 2]]).events).toEqual([]);
    expect(run([ev('tool.execution_start', {})]).events[0]).toMatchObject({ code: 'malformed_record' });
  });

  it('keeps plain text lines as stdout output, not a failure', () => {
    expect(run(['Error: something odd', '   ']).events).toEqual([
      { type: 'log', source: 'stdout', line: 'Error: something odd' },
    ]);
  });

  it('answers odd records with nothing, a debug event or a malformed_record error, unguarded', () => {
    const state: CopilotTranslatorState = copilotTranslator.init({ debug: true });
    const odd: [unknown, string[]][] = [
      [null, ['debug']],
      [1, ['debug']],
      ['x', ['debug']],
      [{}, ['error']],
      [{ type: 'assistant.message', data: 5 }, []],
      [{ type: 'tool.execution_complete', data: { toolCallId: 3 } }, ['error']],
      [{ type: 'assistant.reasoning_delta', data: { deltaContent: 7 } }, []],
      [{ type: 'session.error', data: { message: 9, statusCode: 'x' } }, ['error']],
      [{ type: 'result', exitCode: 'no' }, []],
      [{ type: 'assistant.tool_call_delta', data: { toolName: 'view', inputDelta: '{' } }, ['error']],
      [{ type: 'skill.invoked', data: { name: 5 } }, ['error']],
      [{ type: 'session.start' }, ['error']],
      [{ type: 'toString', data: {} }, ['debug']],
    ];
    for (const [value, expected] of odd) {
      let drafts: EventDraft[] = [];
      expect(() => {
        drafts = copilotTranslator.translate({ kind: 'json', value }, state);
      }).not.toThrow();
      expect(
        drafts.map((d) => d.type),
        JSON.stringify(value),
      ).toEqual(expected);
      expect(drafts.filter((d) => d.type === 'error' && d.code === 'internal')).toEqual([]);
    }
  });
});

describe('copilot events checked at the edge', () => {
  it('answers an event of a known type without what it cannot do without with a recoverable malformed_record', () => {
    const rows: [keyof typeof copilotMalformed, unknown][] = [
      ['tool.execution_start', ev('tool.execution_start', { toolName: 'bash' })],
      ['tool.execution_start', { type: 'tool.execution_start' }],
      ['tool.execution_complete', ev('tool.execution_complete', { toolCallId: '', success: true })],
      ['assistant.tool_call_delta', ev('assistant.tool_call_delta', { toolCallId: 7, inputDelta: '{' })],
      ['session.start', ev('session.start', { selectedModel: 'gpt-4.1' })],
      ['session.start', { type: 'session.start', data: 'x' }],
      ['skill.invoked', ev('skill.invoked', { arguments: {} })],
    ];
    for (const [type, value] of rows) {
      expect(run([value]).events, JSON.stringify(value)).toEqual([
        { type: 'error', code: 'malformed_record', message: copilotMalformed[type], recoverable: true },
      ]);
    }
  });

  it('still translates the events that need nothing in their data without any', () => {
    const { events } = run([{ type: 'assistant.turn_start' }, { type: 'assistant.message_start', data: [] }]);
    expect(events.map((e) => e.type)).toEqual(['turn_start', 'message_start', 'message_stop']);
  });

  it('checks by hand exactly what the schema checks, and leaves the schema only what the hand check refuses', () => {
    const types = [...Object.keys(copilotMalformed), 'model.call_start'];
    expectEdgeCheckAgrees({
      malformed: copilotMalformed,
      schema: copilotRecordSchema,
      check: copilotRecord,
      streams: ['copilot'],
      nested: ['data'],
      extra: types.flatMap((type) => [
        { type, data: {} },
        { type, data: 5 },
      ]),
    });
  });
});

describe('copilot usage files', () => {
  it('reads one cost per model from --usage-output-file', () => {
    const text = JSON.stringify({
      modelMetrics: {
        'gpt-4.1': { usage: { inputTokens: 100, outputTokens: 20, cacheReadTokens: 10, cacheWriteTokens: 0 } },
      },
    });
    expect(usageDrafts(text)).toEqual([
      { type: 'cost', model: 'gpt-4.1', inputTokens: 100, outputTokens: 20, cacheReadTokens: 10, cacheWriteTokens: 0 },
    ]);
    expect(usageDrafts('not json')).toEqual([]);
  });

  it('reads only the usage records written since the run started', () => {
    const line = (at: string, input: number) =>
      JSON.stringify({
        type: 'session.usage_record',
        timestamp: at,
        data: { usage: { model: 'm', inputTokens: input, outputTokens: 1 } },
      });
    const text = [
      line('2026-01-01T00:00:00.000Z', 5),
      'garbage "session.usage_record"',
      line('2026-01-02T00:00:00.000Z', 7),
    ].join('\n');
    const drafts = usageRecordDrafts(text, Date.parse('2026-01-01T12:00:00.000Z'));
    expect(drafts).toEqual([
      { type: 'cost', model: 'm', inputTokens: 7, outputTokens: 1, cacheReadTokens: 0, cacheWriteTokens: 0 },
    ]);
  });

  it('closes a turn at a cost bounded by the calls still open, not by every call of the run (issue 18)', () => {
    // Counts every property read and key listing on the state and what it holds, during each turn end.
    let reads = 0;
    const counted = <T extends object>(target: T): T =>
      new Proxy(target, {
        get(t, key, receiver) {
          reads++;
          const value: unknown = Reflect.get(t, key, receiver);
          // The StreamLedger's private fields cannot be read through a proxy; it bounds its own
          // finish by the calls not ready yet (test/adapters/shared/stream-ledger.test.ts).
          if (value instanceof StreamLedger) return value;
          return typeof value === 'object' && value !== null ? counted(value) : value;
        },
        ownKeys(t) {
          const keys = Reflect.ownKeys(t);
          reads += keys.length;
          return keys;
        },
        getOwnPropertyDescriptor(t, key) {
          reads++;
          return Reflect.getOwnPropertyDescriptor(t, key);
        },
      });
    const state = counted(copilotTranslator.init({ debug: false }));
    const perTurnEnd: number[] = [];
    const readies: EventDraft[] = [];
    const translate = (value: unknown) =>
      copilotTranslator.translate({ kind: 'json', value }, state).filter((e) => e.type === 'tool_call_ready');
    for (let turn = 0; turn < 300; turn++) {
      translate(ev('assistant.turn_start', { turnId: String(turn) }));
      // One call runs to completion; another is only announced and must be closed by the turn's end.
      translate(ev('assistant.tool_call_delta', { toolCallId: `run-${turn}`, toolName: 'bash', inputDelta: '{' }));
      readies.push(...translate(ev('tool.execution_start', { toolCallId: `run-${turn}`, toolName: 'bash' })));
      translate(ev('tool.execution_complete', { toolCallId: `run-${turn}`, success: true, result: { content: 'ok' } }));
      translate(ev('assistant.tool_call_delta', { toolCallId: `left-${turn}`, toolName: 'view' }));
      reads = 0;
      readies.push(...translate(ev('assistant.turn_end', { turnId: String(turn) })));
      perTurnEnd.push(reads);
    }
    // Every call is made ready exactly once, the one left open by its own turn's end.
    expect(readies).toHaveLength(600);
    expect(new Set(readies.map((e) => e.type === 'tool_call_ready' && e.toolCallId)).size).toBe(600);
    expect(readies[3]).toMatchObject({ toolCallId: 'left-1', toolName: 'view', input: {} });
    // The 300th turn end reads no more of the state than the first one did.
    expect(perTurnEnd.at(-1)).toBeLessThanOrEqual(perTurnEnd[0] ?? 0);
  });
});

describe('copilot permission flags', () => {
  it('maps the run policy onto --allow-all-tools, --allow-tool, --deny-tool and --excluded-tools', () => {
    expect(permissionArgs({ default: 'allow' })).toEqual(['--allow-all-tools']);
    expect(permissionArgs({ default: 'allow', rules: [{ tool: 'shell', decision: 'deny' }] })).toEqual([
      '--allow-all-tools',
      '--deny-tool',
      'shell',
    ]);
    expect(
      permissionArgs({
        default: 'ask',
        rules: [
          { tool: 'bash', decision: 'allow', when: { command: 'git *' } },
          { tool: 'edit', decision: 'allow' },
          { tool: 'mcp__agent-mux__write_file', decision: 'deny' },
          { tool: 'view', decision: 'deny' },
          { tool: 'shell(git push)', decision: 'ask' },
          { tool: 'bash', decision: 'allow', when: { command: 'rm -rf / && x' } },
        ],
      }),
    ).toEqual([
      '--allow-tool',
      'shell(git:*)',
      '--allow-tool',
      'write',
      '--deny-tool',
      'agent-mux(write_file)',
      '--excluded-tools',
      'view',
      '--deny-tool',
      'shell(git push)',
    ]);
    expect(permissionArgs({ default: 'allow', rules: [{ tool: '*', decision: 'deny' }] })).toEqual([]);
    expect(permissionArgs(undefined)).toEqual([]);
  });
});

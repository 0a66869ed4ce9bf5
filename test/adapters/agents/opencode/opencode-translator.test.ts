import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  openCodeRecordType,
  openCodeRecordTypeSchema,
} from '../../../../src/adapters/agents/opencode/opencode-record.ts';
import { openCodeTranslator } from '../../../../src/adapters/agents/opencode/opencode-translator.ts';
import type { NativeRecord, RunRequest } from '../../../../src/core/adapter/index.ts';
import type { EventDraft } from '../../../../src/core/events/index.ts';

const json = (value: unknown): NativeRecord => ({ kind: 'json', value });
const stream = (adapter: string, name: string) =>
  new URL(`../../../fixtures/streams/${adapter}/${name}`, import.meta.url);

function run(records: NativeRecord[], options: { debug?: boolean; request?: Partial<RunRequest> } = {}) {
  const request = options.request ? ({ prompt: 'x', cwd: '/w', ...options.request } as RunRequest) : undefined;
  const state = openCodeTranslator.init({ debug: options.debug ?? false, request });
  const events: EventDraft[] = [];
  for (const record of records) events.push(...openCodeTranslator.translate(record, state));
  return { state, events };
}

function recorded(adapter: string, name: string, request?: Partial<RunRequest>) {
  const records = readFileSync(stream(adapter, name), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => json(JSON.parse(line)));
  return run(records, { request });
}

const types = (events: EventDraft[]) => events.map((e) => e.type);
const S = 'ses_test';
const part = (type: string, extra: Record<string, unknown> = {}) => ({
  id: 'prt_1',
  messageID: 'msg_1',
  sessionID: S,
  type,
  ...extra,
});
const record = (type: string, extra: Record<string, unknown>) => json({ type, timestamp: 1, sessionID: S, ...extra });
const toolUse = (tool: string, state: Record<string, unknown>, callID = 'call_1') =>
  record('tool_use', { part: part('tool', { tool, callID, state }) });
const apiError = (statusCode: number, message: string, extra: Record<string, unknown> = {}) =>
  record('error', {
    error: { name: 'APIError', data: { message, statusCode, isRetryable: statusCode === 429, ...extra } },
  });

describe('openCodeTranslator on recorded streams (opencode 1.18.33)', () => {
  it('tool: session, shell call with input and output, answer, per-step cost, outcome', () => {
    const { events, state } = recorded('opencode', 'tool.jsonl');
    expect(types(events)).toEqual([
      'session_start',
      'turn_start',
      'message_start',
      'tool_call_start',
      'tool_call_ready',
      'tool_result',
      'message_stop',
      'cost',
      'message_start',
      'text_delta',
      'message_stop',
      'cost',
      'turn_end',
    ]);
    expect(events.find((e) => e.type === 'tool_call_ready')).toMatchObject({
      toolName: 'bash',
      input: { command: 'echo agent-mux-live' },
    });
    expect(events.find((e) => e.type === 'tool_result')).toMatchObject({ output: 'agent-mux-live\n', isError: false });
    expect(events.find((e) => e.type === 'cost')).toMatchObject({
      inputTokens: 80,
      outputTokens: 24,
      cacheReadTokens: 40,
    });
    expect(state.outcome).toEqual({ status: 'completed', output: 'The command ran and printed agent-mux-live. Done.' });
    expect(state.sessionId).toMatch(/^ses_/);
  });

  it('auth-401 and rate-429 become typed errors and a failed outcome', () => {
    const auth = recorded('opencode', 'auth-401.jsonl');
    expect(types(auth.events)).toEqual(['session_start', 'auth_error']);
    expect(auth.state.outcome).toMatchObject({ status: 'failed', message: 'Incorrect API key provided: fake-key.' });
    const rate = recorded('opencode', 'rate-429.jsonl');
    expect(rate.events.at(-1)).toMatchObject({ type: 'rate_limit_error', retryAfterMs: 1000 });
    expect(rate.state.outcome?.status).toBe('failed');
  });

  it('resume and fork: the session event follows the request', () => {
    const resumed = recorded('opencode', 'resume.jsonl', { resumeSessionId: 'ses_dfe0' });
    expect(resumed.events[0]).toMatchObject({ type: 'session_resume', previousSessionId: 'ses_dfe0' });
    const parent = 'ses_dfe67bf2fffe0yw22Ob9O17ibI';
    const forked = recorded('opencode', 'fork-adhoc.jsonl', { resumeSessionId: parent, fork: true });
    expect(forked.events[0]).toMatchObject({ type: 'session_fork', forkedFrom: parent });
    expect(forked.state.sessionId).not.toBe(parent);
  });
});

describe('openCodeTranslator on ad-hoc recordings (MCP through the run tool host)', () => {
  for (const adapter of ['opencode', 'kilo']) {
    it(`${adapter}: agent_mux_list_files is an MCP call of server agent_mux`, () => {
      const { events, state } = recorded(adapter, 'mcp-adhoc.jsonl');
      expect(events.find((e) => e.type === 'mcp_tool_call_start')).toMatchObject({
        server: 'agent_mux',
        toolName: 'list_files',
        input: { path: '.' },
      });
      const result = events.find((e) => e.type === 'mcp_tool_result');
      expect(result).toMatchObject({ server: 'agent_mux', toolName: 'list_files', isError: false });
      expect(JSON.stringify(result)).toContain('README.md');
      expect(types(events)).not.toContain('tool_call_start');
      expect(state.outcome?.status).toBe('completed');
    });
  }
});

describe('openCodeTranslator on hand-made records', () => {
  it('ignores unknown record types unless debugging', () => {
    const rec = record('session.idle', {});
    expect(run([rec]).events).toEqual([{ type: 'session_start', sessionId: S }]);
    const debug = run([rec], { debug: true }).events;
    expect(debug.at(-1)).toMatchObject({ type: 'debug', message: 'unknown record type "session.idle"' });
    expect(run([json([1, 2])], { debug: true }).events[0]?.type).toBe('debug');
    expect(run([json('text')]).events).toEqual([]);
  });

  it('never throws on malformed records', () => {
    const odd: unknown[] = [
      null,
      3,
      {},
      { type: 'text' },
      { type: 'text', part: 5 },
      { type: 'tool_use' },
      { type: 'tool_use', part: { tool: 1 } },
      { type: 'step_finish', part: { tokens: 'x' } },
      { type: 'error' },
      { type: 'error', error: 5 },
      { type: 'reasoning', part: {} },
    ];
    for (const value of odd) expect(() => run([json(value)])).not.toThrow();
    expect(run([json({ type: 'tool_use' })]).events).toEqual([
      expect.objectContaining({ type: 'error', code: 'malformed_record' }),
    ]);
  });

  it('turns plain text lines into text, not failures', () => {
    const { events, state } = run([
      { kind: 'text', line: 'some warning' },
      { kind: 'text', line: '   ' },
    ]);
    expect(events).toEqual([{ type: 'text_delta', delta: 'some warning\n', messageId: undefined }]);
    expect(state.outcome).toBeUndefined();
  });

  it('reasoning parts become a thinking block inside the message', () => {
    const { events } = run([
      record('step_start', { part: part('step-start') }),
      record('reasoning', { part: part('reasoning', { text: 'Let me think.' }) }),
      record('text', { part: part('text', { text: 'Answer.' }) }),
      record('step_finish', {
        part: part('step-finish', {
          reason: 'stop',
          cost: 0.0123,
          tokens: { input: 5, output: 6, reasoning: 7, cache: { read: 1, write: 2 } },
        }),
      }),
    ]);
    expect(types(events)).toEqual([
      'session_start',
      'turn_start',
      'message_start',
      'thinking_start',
      'thinking_delta',
      'thinking_stop',
      'text_delta',
      'message_stop',
      'cost',
      'turn_end',
    ]);
    expect(events.find((e) => e.type === 'cost')).toEqual({
      type: 'cost',
      inputTokens: 5,
      outputTokens: 6,
      thinkingTokens: 7,
      cacheReadTokens: 1,
      cacheWriteTokens: 2,
      usd: 0.0123,
    });
    expect(events.find((e) => e.type === 'message_stop')).toMatchObject({ text: 'Answer.' });
  });

  it('a failed tool call is a tool_result with isError', () => {
    const { events } = run([
      toolUse('edit', {
        status: 'error',
        input: { filePath: 'a' },
        error: 'permission denied',
        time: { start: 10, end: 25 },
      }),
    ]);
    expect(events.find((e) => e.type === 'tool_result')).toEqual({
      type: 'tool_result',
      toolCallId: 'call_1',
      toolName: 'edit',
      output: 'permission denied',
      isError: true,
      durationMs: 15,
    });
  });

  it('a tool of the run MCP server (agent_mux_<tool>) becomes mcp_tool_call_start / mcp_tool_result', () => {
    const { events } = run([toolUse('agent_mux_lookup', { status: 'completed', input: { q: 'x' }, output: 'found' })]);
    expect(events.slice(1)).toEqual([
      { type: 'turn_start', turn: 0 },
      { type: 'mcp_tool_call_start', toolCallId: 'call_1', server: 'agent_mux', toolName: 'lookup', input: { q: 'x' } },
      {
        type: 'mcp_tool_result',
        toolCallId: 'call_1',
        server: 'agent_mux',
        toolName: 'lookup',
        output: 'found',
        isError: false,
      },
    ]);
  });

  it('a tool part reported twice is translated once', () => {
    const rec = toolUse('bash', { status: 'completed', input: {}, output: '' });
    expect(types(run([rec, rec]).events).filter((t) => t === 'tool_call_start')).toHaveLength(1);
  });

  it('classifies errors: auth, rate limit (retry-after), context, other, and Kilo string errors', () => {
    expect(run([apiError(403, 'forbidden')]).events.at(-1)?.type).toBe('auth_error');
    expect(run([apiError(429, 'slow down', { responseHeaders: { 'retry-after': '7' } })]).events.at(-1)).toMatchObject({
      type: 'rate_limit_error',
      retryAfterMs: 7000,
    });
    expect(run([apiError(429, 'Rate limit. Please try again in 250ms.')]).events.at(-1)).toMatchObject({
      retryAfterMs: 250,
    });
    const context = run([record('error', { error: { name: 'ContextOverflowError', data: { message: 'too big' } } })]);
    expect(context.events.at(-1)).toEqual({ type: 'context_exceeded', message: 'too big' });
    expect(run([apiError(400, "This model's maximum context length is 8192 tokens")]).events.at(-1)?.type).toBe(
      'context_exceeded',
    );
    const other = run([apiError(500, 'server exploded')]);
    expect(other.events.at(-1)).toEqual({
      type: 'error',
      code: 'agent_error',
      message: 'server exploded',
      recoverable: false,
    });
    const kilo = run([
      record('error', { error: 'run ended with an auto-rejected permission; pass --auto for autonomous use' }),
    ]);
    expect(kilo.events.at(-1)).toMatchObject({ type: 'error', code: 'agent_error' });
    expect(kilo.state.outcome).toMatchObject({ status: 'failed' });
    expect(run([record('error', { error: { name: 'UnknownError' } })]).events.at(-1)).toMatchObject({
      message: 'UnknownError',
    });
  });

  it('an error after the answer keeps the run failed; finish closes what is open', () => {
    const { events, state } = run([
      record('step_start', { part: part('step-start') }),
      record('text', { part: part('text', { text: 'partial' }) }),
      apiError(500, 'stream broke'),
    ]);
    const end = openCodeTranslator.finish?.({ exitCode: 1, signal: null }, state) ?? [];
    expect(types(events).includes('message_stop')).toBe(false);
    expect(end).toEqual([
      { type: 'message_stop', messageId: 'msg_1', text: 'partial' },
      { type: 'turn_end', turn: 0, stopReason: 'error', result: 'partial', isError: true },
    ]);
    expect(state.outcome).toMatchObject({ status: 'failed', message: 'stream broke' });
  });

  it('step_finish with reason tool-calls does not end the turn', () => {
    const { events, state } = run([
      record('step_start', { part: part('step-start') }),
      record('step_finish', { part: part('step-finish', { reason: 'tool-calls', tokens: { input: 1, output: 1 } }) }),
    ]);
    expect(types(events)).not.toContain('turn_end');
    expect(state.outcome).toBeUndefined();
  });

  it('stderr lines become logs', () => {
    const state = openCodeTranslator.init({ debug: false });
    expect(openCodeTranslator.stderr?.('Error: Session not found', state)).toEqual([
      { type: 'log', source: 'stderr', line: 'Error: Session not found' },
    ]);
    expect(openCodeTranslator.stderr?.('  ', state)).toEqual([]);
  });
});

describe('openCodeRecordType', () => {
  it('takes exactly the types the schema takes', () => {
    const values: unknown[] = [...openCodeRecordTypeSchema.options, 'session', 'toString', '', 7, null, undefined];
    for (const value of values) {
      const parsed = openCodeRecordTypeSchema.safeParse(value);
      expect(openCodeRecordType(value), String(value)).toBe(parsed.success ? parsed.data : undefined);
    }
  });
});

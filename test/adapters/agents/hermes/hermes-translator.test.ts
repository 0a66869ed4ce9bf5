import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  hermesErrorDrafts,
  hermesMcpTool,
  hermesTranslator,
} from '../../../../src/adapters/agents/hermes/hermes-translator.ts';
import type { NativeRecord, RunRequest } from '../../../../src/core/adapter/index.ts';
import type { EventDraft } from '../../../../src/core/events/index.ts';

const json = (value: unknown): NativeRecord => ({ kind: 'json', value });

function run(records: NativeRecord[], options: { debug?: boolean; request?: Partial<RunRequest> } = {}) {
  const request = options.request ? ({ prompt: 'x', cwd: '/w', ...options.request } as RunRequest) : undefined;
  const state = hermesTranslator.init({ debug: options.debug ?? false, request });
  const events: EventDraft[] = [];
  for (const record of records) events.push(...hermesTranslator.translate(record, state));
  return { state, events };
}

const types = (events: EventDraft[]) => events.map((e) => e.type);
const init = { type: 'system', subtype: 'init', model: 'm', session_id: '20261122_050300_a1b2c3', timestamp: 1 };
const ok = (extra: object = {}) => ({
  type: 'result',
  session_id: '20261122_050300_a1b2c3',
  exit_code: 0,
  text: 'done',
  tokens: { input: 10, output: 2, total: 12, cache_read: 3, cache_write: 0 },
  duration_ms: 50,
  ...extra,
});

describe('hermesTranslator', () => {
  it('translates the source-built tool stream', () => {
    const lines = readFileSync(new URL('../../../fixtures/streams/hermes/tool.jsonl', import.meta.url), 'utf8');
    const { events, state } = run(
      lines
        .split('\n')
        .filter(Boolean)
        .map((l) => json(JSON.parse(l))),
    );
    expect(types(events)).toEqual([
      'session_start',
      'turn_start',
      'message_start',
      'text_delta',
      'text_delta',
      'message_stop',
      'tool_call_start',
      'tool_call_ready',
      'tool_result',
      'message_start',
      'text_delta',
      'text_delta',
      'message_stop',
      'cost',
      'turn_end',
    ]);
    expect(events.find((e) => e.type === 'tool_call_ready')).toMatchObject({
      toolCallId: 'toolu_01',
      toolName: 'terminal',
      input: { command: 'echo agent-mux-live' },
    });
    expect(events.find((e) => e.type === 'tool_result')).toMatchObject({
      toolCallId: 'toolu_01',
      isError: false,
      durationMs: 41,
    });
    expect(events.find((e) => e.type === 'cost')).toMatchObject({
      inputTokens: 240,
      outputTokens: 48,
      cacheReadTokens: 80,
    });
    expect(state.sessionId).toBe('20261122_050300_a1b2c3');
    expect(state.outcome).toEqual({ status: 'completed', output: 'The command ran and printed agent-mux-live. Done.' });
  });

  it('emits session_resume when the run resumes a session', () => {
    const { events } = run([json(init)], { request: { resumeSessionId: 'old' } });
    expect(events[0]).toEqual({
      type: 'session_resume',
      sessionId: '20261122_050300_a1b2c3',
      previousSessionId: 'old',
    });
  });

  it('pairs results without tool_call_id with the oldest open call of that name', () => {
    const { events } = run([
      json(init),
      json({ type: 'tool_use', name: 'read_file', input: { path: 'a' } }),
      json({ type: 'tool_use', name: 'read_file', input: { path: 'b' } }),
      json({ type: 'tool_result', name: 'read_file', output: 'A', duration_ms: 1, is_error: false }),
      json({ type: 'tool_result', name: 'read_file', output: 'B', duration_ms: 1, is_error: true }),
    ]);
    const starts = events
      .filter((e) => e.type === 'tool_call_start')
      .map((e) => (e as { toolCallId: string }).toolCallId);
    const results = events.filter((e) => e.type === 'tool_result');
    expect(results.map((e) => (e as { toolCallId: string }).toolCallId)).toEqual(starts);
    expect(results[1]).toMatchObject({ output: 'B', isError: true });
  });

  it('opens a call for a result whose start it never saw', () => {
    const { events } = run([
      json(init),
      json({ type: 'tool_result', name: 'terminal', tool_call_id: 'x', output: '' }),
    ]);
    expect(types(events).slice(-3)).toEqual(['tool_call_start', 'tool_call_ready', 'tool_result']);
  });

  it('adds mcp_tool_call_start / mcp_tool_result for mcp_<server>_<tool> tools', () => {
    const { events } = run([
      json(init),
      json({ type: 'tool_use', name: 'mcp_github_create_issue', tool_call_id: 'c1', input: { title: 't' } }),
      json({ type: 'tool_result', name: 'mcp_github_create_issue', tool_call_id: 'c1', output: '#1', is_error: false }),
    ]);
    expect(events.find((e) => e.type === 'mcp_tool_call_start')).toMatchObject({
      server: 'github',
      toolName: 'create_issue',
      input: { title: 't' },
    });
    expect(events.find((e) => e.type === 'mcp_tool_result')).toMatchObject({ toolCallId: 'c1', output: '#1' });
    expect(hermesMcpTool('terminal')).toBeUndefined();
  });

  it('emits the final text when nothing was streamed', () => {
    const { events } = run([json(init), json(ok())]);
    expect(types(events)).toEqual([
      'session_start',
      'turn_start',
      'message_start',
      'text_delta',
      'message_stop',
      'cost',
      'turn_end',
    ]);
  });

  it('fails the run on result.error and classifies it', () => {
    const cases: [string, string][] = [
      ['HTTP 401: invalid x-api-key', 'auth_error'],
      ['Error code: 429 - rate limit exceeded', 'rate_limit_error'],
      ["This model's maximum context length is 8192 tokens", 'context_exceeded'],
      ['boom', 'error'],
    ];
    for (const [error, type] of cases) {
      const { events, state } = run([json(init), json(ok({ exit_code: 1, text: '', error }))]);
      expect(events.some((e) => e.type === type)).toBe(true);
      expect(events.at(-1)).toMatchObject({ type: 'turn_end', isError: true });
      expect(state.outcome).toEqual({ status: 'failed', message: error });
    }
  });

  it('treats an error without exit code as a failure, and exit 130 as interrupted', () => {
    expect(run([json(ok({ error: 'provider unavailable' }))]).state.outcome?.status).toBe('failed');
    expect(run([json(ok({ exit_code: 130, text: '' }))]).state.outcome).toEqual({
      status: 'failed',
      message: 'hermes was interrupted',
    });
  });

  it('reads retry-after from rate-limit messages', () => {
    expect(hermesErrorDrafts('429 Too Many Requests, retry-after: 2s')[0]).toMatchObject({ retryAfterMs: 2000 });
  });

  it('turns plain text before the stream into text, and into logs once it is under way', () => {
    const { events } = run([
      { kind: 'text', line: 'hermes: plain answer' },
      json(init),
      { kind: 'text', line: 'stray warning' },
    ]);
    expect(events[0]).toEqual({ type: 'text_delta', delta: 'hermes: plain answer\n' });
    expect(events.at(-1)).toEqual({ type: 'log', source: 'stdout', line: 'stray warning' });
  });

  it('drops unknown records unless debugging, and never throws', () => {
    expect(run([json({ type: 'reasoning', text: 'hmm' })]).events).toEqual([]);
    expect(run([json({ type: 'reasoning' })], { debug: true }).events[0]).toMatchObject({ type: 'debug' });
    // Straight through translate (no guard): odd records give nothing, a debug event, or well-formed
    // drafts from their lenient fields; never a throw and never an `internal` error.
    const odd: [unknown, string[]][] = [
      [null, ['debug']],
      [1, ['debug']],
      [[], ['debug']],
      [{ type: 7 }, ['debug']],
      [{ type: 'text', text: 5 }, []],
      [{ type: 'system', subtype: 'other' }, ['debug']],
      [{ type: 'tool_use' }, ['turn_start', 'tool_call_start', 'tool_call_ready']],
      // Pairs with the nameless call above (both `unknown`).
      [{ type: 'tool_result', name: 3, duration_ms: -1 }, ['tool_result']],
      [{ type: 'tool_result', tool_call_id: 'never-started' }, ['tool_call_start', 'tool_call_ready', 'tool_result']],
      [{ type: 'result', tokens: 'x', exit_code: 'no', text: 4 }, ['turn_end']],
    ];
    const state = hermesTranslator.init({ debug: true });
    for (const [value, expected] of odd) {
      let drafts: EventDraft[] = [];
      expect(() => {
        drafts = hermesTranslator.translate(json(value), state);
      }).not.toThrow();
      expect(
        drafts.map((d) => d.type),
        JSON.stringify(value),
      ).toEqual(expected);
      expect(drafts.some((d) => d.type === 'error' && d.code === 'internal')).toBe(false);
    }
  });
});

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createParser } from 'eventsource-parser';
import { describe, expect, it } from 'vitest';
import {
  type OpenCodeHttpTranslatorState,
  openCodeHttpTranslator,
} from '../../../../src/adapters/agents/opencode-http/opencode-http-translator.ts';
import type { EventDraft } from '../../../../src/core/events/index.ts';

const dir = join(import.meta.dirname, '../../../fixtures/streams/opencode-http');

/** The `data:` payloads of a recorded `GET /event` stream. */
function sseData(name: string): string[] {
  const out: string[] = [];
  const parser = createParser({ onEvent: (message) => out.push(message.data) });
  parser.feed(readFileSync(join(dir, `${name}.sse`), 'utf8'));
  return out;
}

function replay(
  name: string,
  debug = false,
  cwd?: string,
): { drafts: EventDraft[]; state: OpenCodeHttpTranslatorState } {
  const state = openCodeHttpTranslator.init({ debug, request: cwd === undefined ? undefined : { prompt: '', cwd } });
  const drafts: EventDraft[] = [];
  for (const data of sseData(name))
    drafts.push(...openCodeHttpTranslator.translate({ kind: 'json', value: JSON.parse(data) }, state));
  return { drafts, state };
}

/** The golden file holds what the live session emitted, including its own approval drafts. */
function golden(name: string): EventDraft[] {
  const all = JSON.parse(readFileSync(join(dir, `${name}.golden.json`), 'utf8')) as EventDraft[];
  return all.filter((d) => !d.type.startsWith('approval_'));
}

function run(value: unknown, state: OpenCodeHttpTranslatorState): EventDraft[] {
  return openCodeHttpTranslator.translate({ kind: 'json', value }, state);
}

const ses = 'ses_1';
const ev = (type: string, properties: Record<string, unknown>) => ({
  id: 'evt',
  type,
  properties: { sessionID: ses, ...properties },
});
const part = (p: Record<string, unknown>) =>
  ev('message.part.updated', { part: { sessionID: ses, messageID: 'msg_a', ...p } });

describe('openCodeHttpTranslator on recorded opencode serve 1.18.33 streams', () => {
  for (const name of ['plain', 'tool', 'denied', 'auth-401']) {
    it(`${name}: replays to the drafts the live session emitted`, () => {
      const expected = golden(name);
      const first = expected[0];
      const cwd = first?.type === 'session_start' ? first.cwd : undefined;
      expect(JSON.parse(JSON.stringify(replay(name, false, cwd).drafts))).toEqual(expected);
    });
  }

  it('plain: streams the answer token by token and completes with it', () => {
    const { drafts, state } = replay('plain');
    const text = drafts.flatMap((d) => (d.type === 'text_delta' ? [d.delta] : [])).join('');
    expect(text.length).toBeGreaterThan(0);
    expect(drafts.filter((d) => d.type === 'text_delta').length).toBeGreaterThan(1);
    expect(drafts[0]).toMatchObject({ type: 'session_start' });
    expect(state.outcome).toEqual({ status: 'completed', output: text });
    expect(drafts.at(-1)).toMatchObject({ type: 'turn_end', result: text, isError: false });
  });

  it('tool: reports the bash call with its input and output', () => {
    const { drafts } = replay('tool');
    expect(drafts.find((d) => d.type === 'tool_call_ready')).toMatchObject({
      toolName: 'bash',
      input: { command: 'echo agent-mux-live' },
    });
    const result = drafts.find((d) => d.type === 'tool_result');
    expect(result).toMatchObject({ toolName: 'bash', isError: false });
    expect(String(result?.type === 'tool_result' ? result.output : '')).toContain('agent-mux-live');
    expect(drafts.filter((d) => d.type === 'cost').length).toBe(2);
  });

  it('denied: the rejected call is a failed tool result carrying the denial reason', () => {
    const { drafts, state } = replay('denied');
    const result = drafts.find((d) => d.type === 'tool_result');
    expect(result).toMatchObject({ isError: true });
    expect(String(result?.type === 'tool_result' ? result.output : '')).toContain('denied by the recorder');
    expect(state.outcome?.status).toBe('completed');
    const all = JSON.parse(readFileSync(join(dir, 'denied.golden.json'), 'utf8')) as EventDraft[];
    expect(all.map((d) => d.type)).toEqual(expect.arrayContaining(['approval_request', 'approval_denied']));
  });

  it('auth-401: an auth_error and a failed outcome', () => {
    const { drafts, state } = replay('auth-401');
    expect(drafts.find((d) => d.type === 'auth_error')).toMatchObject({ message: expect.stringContaining('API key') });
    expect(state.outcome?.status).toBe('failed');
    expect(drafts.at(-1)).toMatchObject({ type: 'turn_end', isError: true, stopReason: 'error' });
  });

  it('ignores the server events (plugins, heartbeats) unless debugging', () => {
    const quiet = replay('plain').drafts;
    const loud = replay('plain', true).drafts;
    expect(quiet.some((d) => d.type === 'debug')).toBe(false);
    expect(loud.some((d) => d.type === 'debug')).toBe(true);
  });
});

describe('openCodeHttpTranslator edge cases', () => {
  const init = () => openCodeHttpTranslator.init({ debug: false, request: { prompt: 'p', cwd: '/w', model: 'a/b' } });

  it('announces the first session and ignores other sessions', () => {
    const state = init();
    expect(run(ev('session.status', { status: { type: 'busy' } }), state)).toEqual([
      { type: 'session_start', sessionId: ses, model: 'a/b', cwd: '/w' },
    ]);
    expect(run({ type: 'session.idle', properties: { sessionID: 'ses_other' } }, state)).toEqual([]);
  });

  it('skips the parts of user messages (the prompt)', () => {
    const state = init();
    run(ev('message.updated', { info: { id: 'msg_u', role: 'user' } }), state);
    const out = run(
      ev('message.part.updated', { part: { id: 'p', messageID: 'msg_u', type: 'text', text: 'prompt' } }),
      state,
    );
    expect(out.filter((d) => d.type !== 'session_start')).toEqual([]);
  });

  it('a whole text part without deltas gives one delta; a reasoning part gives thinking events', () => {
    const state = init();
    const out = [
      ...run(part({ id: 'r1', type: 'reasoning', text: 'hmm', time: { start: 1, end: 2 } }), state),
      ...run(part({ id: 't1', type: 'text', text: 'hi', time: { start: 1, end: 2 } }), state),
    ].map((d) => d.type);
    expect(out).toEqual([
      'session_start',
      'turn_start',
      'thinking_start',
      'thinking_delta',
      'thinking_stop',
      'message_start',
      'text_delta',
      'message_stop',
    ]);
  });

  it('deltas then the final part: nothing is repeated', () => {
    const state = init();
    run(part({ id: 't1', type: 'text', text: '', time: { start: 1 } }), state);
    const d = run(ev('message.part.delta', { partID: 't1', field: 'text', delta: 'ab' }), state);
    const end = run(part({ id: 't1', type: 'text', text: 'abc', time: { start: 1, end: 2 } }), state);
    expect(d).toEqual([{ type: 'text_delta', delta: 'ab', messageId: 'msg_a' }]);
    expect(end).toEqual([
      { type: 'text_delta', delta: 'c', messageId: 'msg_a' },
      { type: 'message_stop', messageId: 'msg_a', text: 'abc' },
    ]);
  });

  it('MCP tools of the run server become mcp_tool events', () => {
    const state = init();
    const out = run(
      part({
        id: 'x',
        type: 'tool',
        tool: 'agent_mux_read_task',
        callID: 'c1',
        state: { status: 'completed', input: {}, output: 'ok' },
      }),
      state,
    );
    expect(out.filter((d) => d.type.startsWith('mcp'))).toEqual([
      { type: 'mcp_tool_call_start', toolCallId: 'c1', server: 'agent_mux', toolName: 'read_task', input: {} },
      {
        type: 'mcp_tool_result',
        toolCallId: 'c1',
        server: 'agent_mux',
        toolName: 'read_task',
        output: 'ok',
        isError: false,
      },
    ]);
  });

  it('a tool part without a name is malformed', () => {
    expect(run(part({ id: 'x', type: 'tool' }), init()).at(-1)).toMatchObject({ code: 'malformed_record' });
  });

  it('maps error kinds', () => {
    const err = (error: unknown) =>
      run(ev('session.error', { error }), init()).find((d) => d.type !== 'session_start' && d.type !== 'turn_start');
    expect(
      err({ name: 'APIError', data: { message: 'slow', statusCode: 429, responseHeaders: { 'retry-after': '3' } } }),
    ).toEqual({
      type: 'rate_limit_error',
      message: 'slow',
      retryAfterMs: 3000,
    });
    expect(err({ name: 'ProviderAuthError', data: { message: 'no key' } })).toMatchObject({ type: 'auth_error' });
    expect(err({ name: 'ContextOverflowError', data: { message: 'too long' } })).toMatchObject({
      type: 'context_exceeded',
    });
    expect(err({ name: 'UnknownError', data: { message: 'boom' } })).toMatchObject({ type: 'error', message: 'boom' });
    expect(err('weird')).toMatchObject({ type: 'error', message: 'UnknownError' });
  });

  it('never throws on junk, and finish ends an open turn', () => {
    const state = init();
    for (const value of [null, 1, [], { type: 3 }, { type: 'x', properties: 'y' }]) {
      expect(run(value, state)).toEqual([]);
    }
    expect(openCodeHttpTranslator.translate({ kind: 'text', line: 'oops' }, state)).toEqual([]);
    run(part({ id: 't', type: 'text', text: 'partial', time: { start: 1 } }), state);
    const end = openCodeHttpTranslator.finish?.({ exitCode: null, signal: 'SIGTERM' }, state) ?? [];
    expect(end.map((d) => d.type)).toEqual(['message_stop', 'turn_end']);
  });
});

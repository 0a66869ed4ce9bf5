import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { errorDrafts, openclawTranslator } from '../../../../src/adapters/agents/openclaw/openclaw-translator.ts';
import type { NativeRecord, RunRequest } from '../../../../src/core/adapter/index.ts';
import type { EventDraft } from '../../../../src/core/events/index.ts';

const text = (line: string): NativeRecord => ({ kind: 'text', line });
const stream = (name: string) => new URL(`../../../fixtures/streams/openclaw/${name}`, import.meta.url);

function run(lines: string[], options: { debug?: boolean; request?: Partial<RunRequest> } = {}) {
  const request = options.request ? ({ prompt: 'x', cwd: '/w', ...options.request } as RunRequest) : undefined;
  const state = openclawTranslator.init({ debug: options.debug ?? false, request });
  const events: EventDraft[] = [];
  for (const line of lines) events.push(...openclawTranslator.translate(text(line), state));
  events.push(...(openclawTranslator.finish?.({ exitCode: 0, signal: null }, state) ?? []));
  return { state, events };
}

const recorded = (name: string, request?: Partial<RunRequest>) =>
  run(readFileSync(stream(name), 'utf8').split('\n'), { request });
const types = (events: EventDraft[]) => events.map((e) => e.type);
const envelope = (value: unknown) => JSON.stringify(value, null, 2).split('\n');

describe('openclawTranslator', () => {
  it('translates the recorded tool run (one envelope): session, answer, tool summary, cost, outcome', () => {
    const { events, state } = recorded('tool.jsonl');
    expect(types(events)).toEqual([
      'session_start',
      'turn_start',
      'message_start',
      'text_delta',
      'message_stop',
      'progress',
      'cost',
      'turn_end',
    ]);
    expect(events[0]).toMatchObject({ type: 'session_start', model: 'fake/claude-fake' });
    expect(events.find((e) => e.type === 'progress')).toMatchObject({ summary: 'openclaw ran 1 tool call: exec' });
    expect(events.find((e) => e.type === 'cost')).toMatchObject({
      inputTokens: 240,
      outputTokens: 48,
      cacheReadTokens: 80,
      cacheWriteTokens: 0,
      usd: 0,
    });
    expect(state.outcome).toEqual({ status: 'completed', output: 'The command ran and printed agent-mux-live. Done.' });
    expect(state.sessionId).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('translates the recorded 401 envelope into auth_error and a failed outcome', () => {
    const { events, state } = recorded('auth-401.jsonl');
    expect(types(events)).toEqual(['session_start', 'turn_start', 'auth_error', 'turn_end']);
    expect(state.outcome?.status).toBe('failed');
    expect(state.outcome?.message).toContain('HTTP 401');
  });

  it('translates the recorded `agent --local` envelope of a resumed turn into session_resume', () => {
    const { events, state } = recorded('resume.jsonl', { resumeSessionId: 'prev-session' });
    expect(events[0]).toMatchObject({ type: 'session_resume', previousSessionId: 'prev-session' });
    expect(types(events)).toContain('cost');
    expect(state.outcome?.status).toBe('completed');
  });

  it('reads a compact one-line envelope too', () => {
    const { events, state } = run([JSON.stringify({ ok: true, status: 'ok', final: 'hi', sessionId: 's1' })]);
    expect(types(events)).toEqual([
      'session_start',
      'turn_start',
      'message_start',
      'text_delta',
      'message_stop',
      'turn_end',
    ]);
    expect(state.outcome).toEqual({ status: 'completed', output: 'hi' });
  });

  it('falls back to payload texts when `final` is missing', () => {
    const { events } = run(envelope({ ok: true, status: 'ok', payloads: [{ text: 'a' }, { text: 'b' }] }));
    expect(events.find((e) => e.type === 'message_stop')).toMatchObject({ text: 'a\n\nb' });
  });

  it('turns plain-text lines into text, not a failure', () => {
    const { events, state } = run(['Hello there', '']);
    expect(events).toEqual([{ type: 'text_delta', delta: 'Hello there\n' }]);
    expect(state.outcome).toBeUndefined();
  });

  it('skips junk interleaved inside a pretty envelope and still reads it', () => {
    const lines = envelope({ ok: true, status: 'ok', final: 'done', sessionId: 's' });
    const dirty = lines.flatMap((line) => ['plain warning text', '{"type": broken', line]);
    const { events, state } = run(dirty);
    expect(state.outcome).toEqual({ status: 'completed', output: 'done' });
    expect(events.filter((e) => e.type === 'text_delta').map((e) => (e as { delta: string }).delta)).toContain('done');
  });

  it('reports an envelope cut short as malformed and keeps its lines as text', () => {
    const { events } = run(['{', '  "ok": true,', '  "final": "par']);
    expect(events[0]).toMatchObject({ type: 'error', code: 'malformed_record' });
    expect(types(events).slice(1)).toEqual(['text_delta', 'text_delta', 'text_delta']);
  });

  it('ignores a JSON object without envelope fields unless debugging', () => {
    expect(run(['{"foo": 1}']).events).toEqual([]);
    expect(run(['{"foo": 1}'], { debug: true }).events[0]).toMatchObject({ type: 'debug' });
  });

  it('never throws on odd JSON records', () => {
    // Straight through translate (no guard): a value that is no envelope is a debug event; an
    // envelope with fields of the wrong type reads them as absent; never an `internal` error.
    const odd: [unknown, string[]][] = [
      [null, ['debug']],
      [3, ['debug']],
      ['x', ['debug']],
      [[], ['debug']],
      [{ hello: 'world' }, ['debug']],
      [{ ok: 'maybe', payloads: 'nope', usage: 'many', meta: 7 }, ['turn_start', 'turn_end']],
      [
        { status: 'error', error: { message: 5 }, meta: { durationMs: -1, agentMeta: [] } },
        ['turn_start', 'error', 'turn_end'],
      ],
    ];
    const state = openclawTranslator.init({ debug: true });
    for (const [value, expected] of odd) {
      let drafts: EventDraft[] = [];
      expect(() => {
        drafts = openclawTranslator.translate({ kind: 'json', value }, state);
      }).not.toThrow();
      expect(
        drafts.map((d) => d.type),
        JSON.stringify(value),
      ).toEqual(expected);
      expect(drafts.some((d) => d.type === 'error' && d.code === 'internal')).toBe(false);
    }
  });

  it('maps a timeout envelope to a timeout error', () => {
    const { events, state } = run(envelope({ ok: false, status: 'timeout', final: '', sessionId: 's' }));
    expect(events.find((e) => e.type === 'error')).toMatchObject({ code: 'timeout' });
    expect(state.outcome?.status).toBe('failed');
  });

  it('maps the CLI error envelope (`error.type: cli_error`)', () => {
    const { events, state } = run(
      envelope({ ok: false, error: { type: 'cli_error', message: 'Gateway unreachable' } }),
    );
    expect(events.find((e) => e.type === 'error')).toMatchObject({
      code: 'agent_error',
      message: 'Gateway unreachable',
    });
    expect(state.outcome).toEqual({ status: 'failed', message: 'Gateway unreachable' });
  });

  it('classifies error messages', () => {
    expect(errorDrafts('request failed (authentication failed, HTTP 401)')[0]?.type).toBe('auth_error');
    expect(errorDrafts('⚠️ API rate limit reached. Retry-After: 3 seconds')[0]).toMatchObject({
      type: 'rate_limit_error',
      retryAfterMs: 3000,
    });
    expect(errorDrafts('prompt is too long for the context window')[0]?.type).toBe('context_exceeded');
    expect(errorDrafts('something else broke')[0]).toMatchObject({ type: 'error', code: 'agent_error' });
  });
});

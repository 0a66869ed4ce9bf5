import { describe, expect, it } from 'vitest';
import { acpUpdateKind, acpUpdateKindSchema } from '../../../../src/adapters/protocols/acp/acp-update-schema.ts';
import { acpTranslator } from '../../../../src/adapters/protocols/acp/index.ts';
import type { EventDraft } from '../../../../src/core/events/index.ts';

const rpc = (value: Record<string, unknown>) => ({ kind: 'json' as const, value: { jsonrpc: '2.0', ...value } });
const update = (u: Record<string, unknown>) => rpc({ method: 'session/update', params: { sessionId: 's', update: u } });
const text = (t: string) => ({ type: 'text', text: t });

function translateAll(values: ReturnType<typeof rpc>[], options: { debug?: boolean; resume?: string } = {}) {
  const state = acpTranslator.init({
    debug: options.debug ?? false,
    request: { prompt: 'p', cwd: '/w', ...(options.resume ? { resumeSessionId: options.resume } : {}) },
  });
  const drafts: EventDraft[] = values.flatMap((v) => acpTranslator.translate(v, state));
  return { drafts, state };
}

describe('acpTranslator', () => {
  it('streams message and thought chunks, closing one when the other starts', () => {
    const { drafts } = translateAll([
      update({ sessionUpdate: 'agent_thought_chunk', content: text('hm') }),
      update({ sessionUpdate: 'agent_message_chunk', content: text('a') }),
      update({ sessionUpdate: 'agent_message_chunk', content: text('b') }),
      rpc({ id: 3, result: { stopReason: 'end_turn' } }),
    ]);
    expect(drafts.map((d) => d.type)).toEqual([
      'thinking_start',
      'thinking_delta',
      'thinking_stop',
      'message_start',
      'text_delta',
      'text_delta',
      'message_stop',
      'turn_end',
    ]);
    expect(drafts.find((d) => d.type === 'message_stop')).toMatchObject({ text: 'ab' });
  });

  it('starts a new message when the messageId changes', () => {
    const { drafts } = translateAll([
      update({ sessionUpdate: 'agent_message_chunk', content: text('a'), messageId: 'm1' }),
      update({ sessionUpdate: 'agent_message_chunk', content: text('b'), messageId: 'm2' }),
    ]);
    expect(drafts.filter((d) => d.type === 'message_start')).toEqual([
      { type: 'message_start', messageId: 'm1' },
      { type: 'message_start', messageId: 'm2' },
    ]);
  });

  it('maps tool_call and tool_call_update: name, input with diffs and locations, one result', () => {
    const diff = { type: 'diff', path: '/w/a.ts', oldText: 'x', newText: 'y' };
    const { drafts } = translateAll([
      update({
        sessionUpdate: 'tool_call',
        toolCallId: 't1',
        title: 'Edit a.ts',
        kind: 'edit',
        status: 'pending',
        locations: [{ path: '/w/a.ts', line: 3 }],
        content: [diff],
        _meta: { claudeCode: { toolName: 'Edit' } },
      }),
      update({ sessionUpdate: 'tool_call_update', toolCallId: 't1', status: 'in_progress' }),
      update({ sessionUpdate: 'tool_call_update', toolCallId: 't1', status: 'completed', rawOutput: { ok: 1 } }),
      update({ sessionUpdate: 'tool_call_update', toolCallId: 't1', status: 'completed' }),
    ]);
    expect(drafts).toEqual([
      { type: 'tool_call_start', toolCallId: 't1', toolName: 'Edit' },
      {
        type: 'tool_call_ready',
        toolCallId: 't1',
        toolName: 'Edit',
        input: { title: 'Edit a.ts', kind: 'edit', locations: [{ path: '/w/a.ts', line: 3 }], diffs: [diff] },
      },
      { type: 'tool_result', toolCallId: 't1', toolName: 'Edit', output: { rawOutput: { ok: 1 } }, isError: false },
    ]);
  });

  it('reports a tool call first seen in an update, and a failed one as an error result', () => {
    const { drafts } = translateAll([
      update({ sessionUpdate: 'tool_call_update', toolCallId: 't9', name: 'shell', status: 'failed' }),
    ]);
    expect(drafts.map((d) => d.type)).toEqual(['tool_call_start', 'tool_call_ready', 'tool_result']);
    expect(drafts[2]).toMatchObject({ toolName: 'shell', isError: true });
  });

  it('plan is progress; usage_update with a USD cost is a running total; the prompt usage keeps that USD', () => {
    const { drafts } = translateAll([
      update({ sessionUpdate: 'plan', entries: [{ content: 'one', status: 'completed', priority: 'low' }] }),
      update({ sessionUpdate: 'usage_update', used: 10, size: 100, cost: { amount: 0.5, currency: 'USD' } }),
      update({ sessionUpdate: 'usage_update', used: 10, size: 100, cost: { amount: 3, currency: 'EUR' } }),
      rpc({
        id: 2,
        result: { stopReason: 'max_tokens', usage: { inputTokens: 7, outputTokens: 3, thoughtTokens: 2 } },
      }),
    ]);
    expect(drafts).toEqual([
      {
        type: 'progress',
        summary: 'plan:\n[completed] one',
        attempted: [{ content: 'one', status: 'completed', priority: 'low' }],
      },
      { type: 'cost', inputTokens: 0, outputTokens: 0, usd: 0.5, cumulative: true },
      { type: 'cost', inputTokens: 7, outputTokens: 3, thinkingTokens: 2, usd: 0.5, cumulative: true },
      { type: 'turn_end', stopReason: 'max_tokens' },
    ]);
  });

  it('the prompt response is terminal; refusal and cancelled fail the run', () => {
    const done = translateAll([rpc({ id: 2, result: { stopReason: 'end_turn' } })]).state;
    expect(done).toMatchObject({ terminal: true, outcome: { status: 'completed' } });
    const refused = translateAll([rpc({ id: 2, result: { stopReason: 'refusal' } })]).state;
    expect(refused.outcome).toMatchObject({ status: 'failed', message: 'the agent refused to continue' });
  });

  it('session/new gives session_start with the model; unknown updates are debug in debug mode only', () => {
    const values = [
      rpc({ id: 0, result: { protocolVersion: 1, agentCapabilities: {} } }),
      rpc({ id: 1, result: { sessionId: 'abc', models: { currentModelId: 'm-1', availableModels: [] } } }),
      update({ sessionUpdate: 'current_mode_update', currentModeId: 'x' }),
    ];
    expect(translateAll(values).drafts).toEqual([{ type: 'session_start', sessionId: 'abc', model: 'm-1' }]);
    const debugTypes = translateAll(values, { debug: true }).drafts.map((d) => d.type);
    expect(debugTypes).toEqual(['debug', 'session_start', 'debug']);
  });

  it('while session/load replays history, updates are not reported; its response is session_resume', () => {
    const { drafts, state } = translateAll(
      [
        rpc({ id: 0, result: { protocolVersion: 1 } }),
        update({ sessionUpdate: 'agent_message_chunk', content: text('old') }),
        rpc({ id: 1, result: {} }),
        update({ sessionUpdate: 'agent_message_chunk', content: text('new') }),
      ],
      { resume: 'old-1' },
    );
    expect(drafts.filter((d) => d.type === 'text_delta')).toEqual([{ type: 'text_delta', delta: 'new' }]);
    expect(drafts[0]).toEqual({ type: 'session_resume', sessionId: 'old-1', previousSessionId: 'old-1' });
    expect(state.sessionId).toBe('old-1');
  });

  it('classifies error responses (auth, rate limit, other) and ends the run failed', () => {
    const kinds = [
      [{ code: -32000, message: 'Authentication required' }, 'auth_error'],
      [{ code: -32603, message: 'Internal error', data: 'HTTP 429 Too Many Requests' }, 'rate_limit_error'],
      [{ code: -32603, message: 'boom' }, 'error'],
    ] as const;
    for (const [error, type] of kinds) {
      const { drafts, state } = translateAll([rpc({ id: 2, error })]);
      expect(drafts.map((d) => d.type)).toEqual([type]);
      expect(state).toMatchObject({ terminal: true, outcome: { status: 'failed' } });
    }
  });

  it('non-JSON-RPC lines are malformed records; text lines are logs; the agent requests are not events', () => {
    const state = acpTranslator.init({ debug: false });
    expect(acpTranslator.translate({ kind: 'json', value: [1] }, state)[0]).toMatchObject({ code: 'malformed_record' });
    expect(acpTranslator.translate({ kind: 'text', line: 'hi' }, state)).toEqual([
      { type: 'log', source: 'stdout', line: 'hi' },
    ]);
    expect(acpTranslator.translate(rpc({ id: 5, method: 'fs/read_text_file', params: {} }), state)).toEqual([]);
  });

  it('finish closes a message left open by an agent that died mid-stream', () => {
    const { state } = translateAll([update({ sessionUpdate: 'agent_message_chunk', content: text('half') })]);
    expect(acpTranslator.finish?.({ exitCode: 1, signal: null }, state)).toEqual([
      { type: 'message_stop', text: 'half' },
    ]);
  });
});

describe('acpUpdateKind', () => {
  it('takes exactly the kinds the schema takes', () => {
    const values: unknown[] = [
      ...acpUpdateKindSchema.options,
      'user_message_chunk',
      'available_commands_update',
      'toString',
      '',
      7,
      null,
      undefined,
    ];
    for (const value of values) {
      const parsed = acpUpdateKindSchema.safeParse(value);
      expect(acpUpdateKind(value), String(value)).toBe(parsed.success ? parsed.data : undefined);
    }
  });
});

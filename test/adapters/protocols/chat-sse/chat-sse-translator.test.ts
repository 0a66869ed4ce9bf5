import { describe, expect, it } from 'vitest';
import { initialChatSseState, translateChatSse } from '../../../../src/adapters/protocols/chat-sse/index.ts';

describe('translateChatSse', () => {
  it('synthesizes the call of a result that came without one (the server deny list)', () => {
    const state = initialChatSseState();
    const { drafts } = translateChatSse(
      { type: 'tool_result', runId: 'r', id: 'r/c1', name: 'bash', output: { status: 'denied', reason: 'no' } },
      state,
    );
    expect(drafts.map((d) => d.type)).toEqual(['tool_call_start', 'tool_call_ready', 'tool_result']);
    expect(drafts[2]).toMatchObject({ isError: true });
  });

  it('joins chunks by id and starts a new message when the id changes', () => {
    const state = initialChatSseState('openai/gpt-4o');
    const types = [
      { type: 'text', id: 'a', content: 'x' },
      { type: 'text', id: 'a', content: 'y' },
      { type: 'text', id: 'b', content: 'z' },
    ].flatMap((record) => translateChatSse(record, state).drafts);
    expect(types).toEqual([
      { type: 'message_start', messageId: 'a', model: 'openai/gpt-4o' },
      { type: 'text_delta', messageId: 'a', delta: 'x' },
      { type: 'text_delta', messageId: 'a', delta: 'y' },
      { type: 'message_stop', messageId: 'a', text: 'xy' },
      { type: 'message_start', messageId: 'b', model: 'openai/gpt-4o' },
      { type: 'text_delta', messageId: 'b', delta: 'z' },
    ]);
  });

  it('uses the cumulative usage of harness_end when no usage record came', () => {
    const state = initialChatSseState();
    translateChatSse({ type: 'harness_start', runId: 'r' }, state);
    const { drafts } = translateChatSse(
      { type: 'harness_end', runId: 'r', reason: 'final', usage: { inputTokens: 7, outputTokens: 3 } },
      state,
    );
    expect(drafts[0]).toEqual({ type: 'cost', inputTokens: 7, outputTokens: 3 });
    expect(state.end).toEqual({ reason: 'final', iterations: undefined });
  });

  it('ignores unknown records and relays of other kinds', () => {
    const state = initialChatSseState();
    expect(translateChatSse({ type: 'repl_output', stdout: 'x' }, state)).toEqual({ drafts: [] });
    expect(translateChatSse({ type: 'relay', kind: 'question', id: 'q' }, state)).toEqual({ drafts: [] });
  });
});

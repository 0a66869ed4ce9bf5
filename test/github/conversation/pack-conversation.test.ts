import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { ConversationStoreError } from '../../../src/github/conversation/conversation-store-error.ts';
import { packConversation, unpackConversation } from '../../../src/github/conversation/pack-conversation.ts';

const STATE = {
  agent: 'codex',
  adapter: 'codex-acp',
  sessionId: 's-1',
  turns: 2,
  updatedAt: '2026-11-25T03:00:00.000Z',
};

describe('packConversation / unpackConversation', () => {
  it('round-trips the state and the files, and compresses what compresses', () => {
    const log = Buffer.from('{"type":"response_item","text":"hello"}\n'.repeat(2000));
    const packed = packConversation({
      state: STATE,
      session: { files: [{ path: 'sessions/a.jsonl', content: log }], bytes: log.length },
    });
    expect(packed.session.length).toBeLessThan(log.length / 20);
    const back = unpackConversation(packed, 'octo/demo#1 (codex)');
    expect(back.state).toEqual(STATE);
    expect(back.session.bytes).toBe(log.length);
    expect(back.session.files[0]?.content.equals(log)).toBe(true);
  });

  it('refuses a state that is not one', () => {
    expect(() => packConversation({ state: { ...STATE, turns: -1 }, session: { files: [], bytes: 0 } })).toThrow();
  });

  it.each([
    ['state not JSON', { state: '{', session: gzipSync('{"version":1,"files":[]}') }, 'its stored state is invalid'],
    [
      'state of another shape',
      { state: '{"agent":1}', session: gzipSync('{"version":1,"files":[]}') },
      'its stored state is invalid',
    ],
    ['session not gzip', { state: JSON.stringify(STATE), session: Buffer.from('plain') }, 'do not unpack'],
    [
      'session of another version',
      { state: JSON.stringify(STATE), session: gzipSync('{"version":2,"files":[]}') },
      'do not unpack',
    ],
    [
      'file content not base64',
      { state: JSON.stringify(STATE), session: gzipSync('{"version":1,"files":[{"path":"a","content":"%%"}]}') },
      'do not unpack',
    ],
  ])('a row with its %s is a conversation_load_failed error naming the conversation', (_what, row, message) => {
    let error: unknown;
    try {
      unpackConversation(row, 'octo/demo#1 (codex)');
    } catch (caught) {
      error = caught;
    }
    expect(ConversationStoreError.isInstance(error)).toBe(true);
    expect((error as ConversationStoreError).code).toBe('conversation_load_failed');
    expect((error as Error).message).toBe(
      `conversation octo/demo#1 (codex): ${message.startsWith('its') ? message : `its stored session files ${message}`}`,
    );
  });
});

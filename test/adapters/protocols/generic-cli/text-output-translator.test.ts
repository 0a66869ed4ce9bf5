import { describe, expect, it } from 'vitest';
import {
  closeTextMessage,
  initTextOutputState,
  MAX_MESSAGE_TEXT_CHARS,
  textDeltaDrafts,
  textOutputTranslator,
} from '../../../../src/adapters/protocols/generic-cli/text-output-translator.ts';

describe('textOutputTranslator', () => {
  it('opens one message at the first line, keeps newlines, and closes it with the whole text', () => {
    const state = textOutputTranslator.init({ debug: false });
    expect(textOutputTranslator.translate({ kind: 'text', line: 'hello' }, state)).toEqual([
      { type: 'message_start' },
      { type: 'text_delta', delta: 'hello\n' },
    ]);
    expect(textOutputTranslator.translate({ kind: 'text', line: '  world' }, state)).toEqual([
      { type: 'text_delta', delta: '  world\n' },
    ]);
    expect(textOutputTranslator.finish?.({ exitCode: 0, signal: null }, state)).toEqual([
      { type: 'message_stop', text: 'hello\n  world\n' },
    ]);
  });

  it('emits no message for a program that printed nothing', () => {
    const state = textOutputTranslator.init({ debug: false });
    expect(textOutputTranslator.finish?.({ exitCode: 1, signal: null }, state)).toEqual([]);
  });

  it('leaves stderr to the core (a log event)', () => {
    expect(textOutputTranslator.stderr).toBeUndefined();
  });

  it('closes without text once the text outgrows the limit, and starts afresh afterwards', () => {
    const state = initTextOutputState(false);
    textDeltaDrafts('x'.repeat(MAX_MESSAGE_TEXT_CHARS), state);
    const [delta] = textDeltaDrafts('y', state);
    expect(delta).toEqual({ type: 'text_delta', delta: 'y' });
    expect(closeTextMessage(state)).toEqual([{ type: 'message_stop' }]);
    expect(textDeltaDrafts('z', state)).toEqual([{ type: 'message_start' }, { type: 'text_delta', delta: 'z' }]);
    expect(closeTextMessage(state)).toEqual([{ type: 'message_stop', text: 'z' }]);
  });
});

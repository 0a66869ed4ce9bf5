import { fileURLToPath } from 'node:url';
import { cursorAdapter } from '../../src/adapters/agents/cursor/index.ts';
import { describeAdapterContract } from './adapter-contract.ts';

// Evidence-only: the `tool` stream is built from Cursor's docs, not recorded (test/fixtures/streams/cursor/README.md).
describeAdapterContract('cursor', {
  adapter: cursorAdapter(),
  stream: fileURLToPath(new URL('../fixtures/streams/cursor/docs-tool.jsonl', import.meta.url)),
  recordWithText: (text) =>
    JSON.stringify({
      type: 'assistant',
      message: { role: 'assistant', content: [{ type: 'text', text }] },
      session_id: 's',
    }),
  expectTypes: [
    'session_start',
    'turn_start',
    'thinking_start',
    'thinking_delta',
    'thinking_stop',
    'message_start',
    'text_delta',
    'message_stop',
    'tool_call_start',
    'tool_call_ready',
    'tool_result',
    'cost',
    'turn_end',
  ],
  terminal: true,
});

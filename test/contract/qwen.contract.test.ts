import { fileURLToPath } from 'node:url';
import { qwenAdapter } from '../../src/adapters/agents/qwen/index.ts';
import { describeAdapterContract } from './adapter-contract.ts';

// The `tool` stream is recorded from the real qwen 0.24.4 (src/adapters/agents/qwen/README.md).
describeAdapterContract('qwen', {
  adapter: qwenAdapter(),
  stream: fileURLToPath(new URL('../fixtures/streams/qwen/tool.jsonl', import.meta.url)),
  recordWithText: (text) =>
    JSON.stringify({
      type: 'assistant',
      uuid: `leak-${text.length}`,
      session_id: 'leak',
      parent_tool_use_id: null,
      message: { id: `leak-${text.length}`, type: 'message', role: 'assistant', content: [{ type: 'text', text }] },
    }),
  expectTypes: [
    'session_start',
    'turn_start',
    'message_start',
    'tool_call_start',
    'tool_input_delta',
    'tool_call_ready',
    'message_stop',
    'tool_result',
    'text_delta',
    'cost',
    'turn_end',
  ],
  terminal: true,
});

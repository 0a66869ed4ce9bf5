import { fileURLToPath } from 'node:url';
import { copilotAdapter } from '../../src/adapters/agents/copilot/index.ts';
import { describeAdapterContract } from './adapter-contract.ts';

// The `tool` stream is recorded from the real @github/copilot 1.0.102 (src/adapters/agents/copilot/README.md).
describeAdapterContract('copilot', {
  adapter: copilotAdapter(),
  stream: fileURLToPath(new URL('../fixtures/streams/copilot/tool.jsonl', import.meta.url)),
  recordWithText: (text) =>
    JSON.stringify({
      type: 'assistant.message',
      data: { messageId: `leak-${text.length}`, content: text, toolRequests: [] },
      id: `leak-${text.length}`,
      timestamp: '2026-01-01T00:00:00.000Z',
      parentId: null,
    }),
  expectTypes: [
    'skill_loaded',
    'turn_start',
    'tool_call_start',
    'tool_input_delta',
    'tool_call_ready',
    'tool_result',
    'message_start',
    'text_delta',
    'message_stop',
    'turn_end',
    'session_start',
  ],
  terminal: true,
});

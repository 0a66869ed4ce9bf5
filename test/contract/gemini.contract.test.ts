import { fileURLToPath } from 'node:url';
import { geminiAdapter } from '../../src/adapters/agents/gemini/index.ts';
import { describeAdapterContract } from './adapter-contract.ts';

// The `tool` stream is recorded from the real gemini 0.61.0 (src/adapters/agents/gemini/README.md).
describeAdapterContract('gemini', {
  adapter: geminiAdapter(),
  stream: fileURLToPath(new URL('../fixtures/streams/gemini/tool.jsonl', import.meta.url)),
  recordWithText: (text) =>
    JSON.stringify({
      type: 'message',
      timestamp: '2026-11-22T05:00:00.000Z',
      role: 'assistant',
      content: text,
      delta: true,
    }),
  expectTypes: [
    'session_start',
    'turn_start',
    'tool_call_start',
    'tool_call_ready',
    'tool_result',
    'message_start',
    'text_delta',
    'message_stop',
    'cost',
    'turn_end',
  ],
  terminal: true,
});

import { fileURLToPath } from 'node:url';
import { ompAdapter } from '../../src/adapters/agents/omp/index.ts';
import { describeAdapterContract } from './adapter-contract.ts';

// The stream is the `tool` case recorded live from the real CLI (test/live/specs/omp.live.ts).
describeAdapterContract('omp', {
  adapter: ompAdapter(),
  stream: fileURLToPath(new URL('../fixtures/streams/omp/tool.jsonl', import.meta.url)),
  recordWithText: (text) =>
    JSON.stringify({
      type: 'message_update',
      assistantMessageEvent: { type: 'text_delta', contentIndex: 0, delta: text },
    }),
  expectTypes: [
    'session_start',
    'turn_start',
    'message_start',
    'text_delta',
    'message_stop',
    'tool_call_start',

    'tool_call_ready',
    'tool_result',
    'cost',
    'turn_end',
  ],
});

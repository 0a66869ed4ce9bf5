import { fileURLToPath } from 'node:url';
import { hermesAdapter } from '../../src/adapters/agents/hermes/index.ts';
import { describeAdapterContract } from './adapter-contract.ts';

// Evidence-only: the `tool` stream is built from hermes-agent's source, not recorded
// (test/fixtures/streams/hermes/README.md).
describeAdapterContract('hermes', {
  adapter: hermesAdapter(),
  stream: fileURLToPath(new URL('../fixtures/streams/hermes/tool.jsonl', import.meta.url)),
  recordWithText: (text) => JSON.stringify({ type: 'text', text, timestamp: 0 }),
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
  terminal: true,
});

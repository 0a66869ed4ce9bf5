import { fileURLToPath } from 'node:url';
import { codexAdapter } from '../../src/adapters/agents/codex/index.ts';
import { describeAdapterContract } from './adapter-contract.ts';

// The `tool` stream is recorded from the real codex 0.169.0 (test/fixtures/streams/codex/README.md).
describeAdapterContract('codex', {
  adapter: codexAdapter(),
  stream: fileURLToPath(new URL('../fixtures/streams/codex/tool.jsonl', import.meta.url)),
  recordWithText: (text) =>
    JSON.stringify({ type: 'item.completed', item: { id: `item_leak_${text.length}`, type: 'agent_message', text } }),
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

import { fileURLToPath } from 'node:url';
import { hermesAdapter } from '../../src/adapters/agents/hermes/index.ts';
import { describeAdapterContract } from './adapter-contract.ts';

// Hermes Agent 0.18.2 over ACP (`hermes acp`), its plain turn recorded against the fake model server
// (test/fixtures/streams/hermes/README.md). The tool recording holds a `session/request_permission`
// that the controller answers while the stream is replayed, so its events' order is not fixed: its
// tool calls and the approval are pinned in test/adapters/agents/hermes/ instead.
describeAdapterContract('hermes', {
  adapter: hermesAdapter(),
  stream: fileURLToPath(new URL('../fixtures/streams/hermes/plain.jsonl', import.meta.url)),
  recordWithText: (text) =>
    JSON.stringify({
      jsonrpc: '2.0',
      method: 'session/update',
      params: { sessionId: 's', update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text } } },
    }),
  expectTypes: ['session_start', 'text_delta', 'cost', 'turn_end'],
  terminal: true,
});

import { fileURLToPath } from 'node:url';
import { opencodeAdapter } from '../../src/adapters/agents/opencode/index.ts';
import { describeAdapterContract } from './adapter-contract.ts';

// The `tool` stream is recorded from the real opencode 1.18.33 (`npm run record -- opencode`).
describeAdapterContract('opencode', {
  adapter: opencodeAdapter(),
  stream: fileURLToPath(new URL('../fixtures/streams/opencode/tool.jsonl', import.meta.url)),
  recordWithText: (text) =>
    JSON.stringify({
      type: 'text',
      timestamp: 1,
      sessionID: 'ses_leak',
      part: { id: `prt_leak_${text.length}`, messageID: 'msg_leak', sessionID: 'ses_leak', type: 'text', text },
    }),
  expectTypes: [
    'session_start',
    'turn_start',
    'message_start',
    'tool_call_start',
    'tool_call_ready',
    'tool_result',
    'text_delta',
    'message_stop',
    'cost',
    'turn_end',
  ],
});

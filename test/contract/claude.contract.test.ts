import { fileURLToPath } from 'node:url';
import { claudeAdapter } from '../../src/adapters/agents/claude/index.ts';
import { describeAdapterContract } from './adapter-contract.ts';

// The `tool` stream is recorded from the real Claude Code 2.1.330 (test/fixtures/streams/claude/README.md).
describeAdapterContract('claude', {
  adapter: claudeAdapter(),
  stream: fileURLToPath(new URL('../fixtures/streams/claude/tool.jsonl', import.meta.url)),
  recordWithText: (text) =>
    JSON.stringify({
      type: 'assistant',
      message: {
        id: `msg_leak_${text.length}`,
        role: 'assistant',
        model: 'claude-fake',
        content: [{ type: 'text', text }],
      },
      parent_tool_use_id: null,
      session_id: 'leak',
    }),
  expectTypes: [
    'session_start',
    'turn_start',
    'message_start',
    'tool_call_start',
    'tool_input_delta',
    'tool_call_ready',
    'tool_result',
    'text_delta',
    'message_stop',
    'cost',
    'turn_end',
  ],
  terminal: true,
});

import { fileURLToPath } from 'node:url';
import { codexAcpAdapter } from '../../src/adapters/agents/codex/index.ts';
import { copilotAcpAdapter } from '../../src/adapters/agents/copilot/index.ts';
import { geminiAcpAdapter } from '../../src/adapters/agents/gemini/index.ts';
import { kiloAcpAdapter } from '../../src/adapters/agents/kilo/index.ts';
import { ompAcpAdapter } from '../../src/adapters/agents/omp/index.ts';
import { opencodeAcpAdapter } from '../../src/adapters/agents/opencode/index.ts';
import { qwenAcpAdapter } from '../../src/adapters/agents/qwen/index.ts';
import { acpAdapter } from '../../src/adapters/protocols/acp/index.ts';
import type { Adapter } from '../../src/core/adapter/index.ts';
import { describeAdapterContract } from './adapter-contract.ts';

/**
 * The `acp` type under the shared contract. The recorded stream is Claude Code 2.1.330 through
 * claude-agent-acp 0.101.0 running a shell command (a tool call, text, usage with USD), replayed as
 * the agent's stdout: its `session/prompt` response is the terminal record. ACP's own cases (permissions granted, refused,
 * cancelled mid-request, initialize never answered, an agent that exits mid-turn) are in
 * test/adapters/protocols/acp/acp-run.test.ts, on a fixture agent that speaks the protocol.
 */
const textChunk = (text: string) =>
  JSON.stringify({
    jsonrpc: '2.0',
    method: 'session/update',
    params: { sessionId: 's', update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text } } },
  });

describeAdapterContract('acp', {
  adapter: acpAdapter('acp', { binary: 'unused' }, { initializeTimeoutMs: 30_000 }),
  stream: fileURLToPath(new URL('../fixtures/streams/acp-claude/tool.jsonl', import.meta.url)),
  recordWithText: textChunk,
  expectTypes: ['session_start', 'tool_call_start', 'tool_call_ready', 'tool_result', 'text_delta', 'cost', 'turn_end'],
  terminal: true,
});

/**
 * The built-in `<agent>-acp` adapters (their own plans: arguments, environment, permission config)
 * on each agent's recorded plain turn.
 */
const builtins: [string, () => Adapter][] = [
  ['codex', codexAcpAdapter],
  ['copilot', copilotAcpAdapter],
  ['gemini', geminiAcpAdapter],
  ['kilo', kiloAcpAdapter],
  ['omp', ompAcpAdapter],
  ['opencode', opencodeAcpAdapter],
  ['qwen', qwenAcpAdapter],
];
for (const [agent, create] of builtins) {
  describeAdapterContract(`${agent}-acp`, {
    adapter: create(),
    stream: fileURLToPath(new URL(`../fixtures/streams/acp-${agent}/plain.jsonl`, import.meta.url)),
    recordWithText: textChunk,
    expectTypes: ['session_start', 'text_delta', 'turn_end'],
    terminal: true,
  });
}

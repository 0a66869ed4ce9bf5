import { qwenAcpAdapter } from '../../../src/adapters/protocols/acp/agents/qwen-acp.ts';
import type { LiveSpec } from '../live-spec.ts';
import { spec as qwen } from './qwen.live.ts';

/** A command that writes (a read-only one may run without asking). */
const WRITE_COMMAND = 'echo agent-mux-live > agent-mux-live.txt';
const WRITE_PROMPT = `Run the shell command \`${WRITE_COMMAND}\` and tell me what happened.`;

/**
 * Qwen Code 0.24.4 in ACP mode (`qwen --acp --approval-mode default`), against the fake model
 * server with the same environment as the headless spec. Recordings: test/fixtures/streams/acp-qwen/.
 */
export const spec: LiveSpec = {
  ...qwen,
  adapter: 'acp-qwen',
  create: () => qwenAcpAdapter(),
  cases: {
    ...qwen.cases,
    tool: { prompt: WRITE_PROMPT, shell: { command: WRITE_COMMAND } },
    denied: {
      prompt: WRITE_PROMPT,
      shell: { command: WRITE_COMMAND },
      policy: { default: 'allow', rules: [{ tool: 'execute', decision: 'deny' }] },
    },
  },
};

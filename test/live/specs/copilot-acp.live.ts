import { copilotAcpAdapter } from '../../../src/adapters/protocols/acp/agents/copilot-acp.ts';
import type { LiveSpec } from '../live-spec.ts';
import { spec as copilot } from './copilot.live.ts';

/** A command that writes (a read-only one may run without asking). */
const WRITE_COMMAND = 'echo agent-mux-live > agent-mux-live.txt';
const WRITE_PROMPT = `Run the shell command \`${WRITE_COMMAND}\` and tell me what happened.`;

/**
 * GitHub Copilot CLI 1.0.102 in ACP mode (`copilot --acp`), against the fake model server with the
 * headless spec's environment (a custom OpenAI provider). The shell command is asked over
 * `session/request_permission` (ACP kind `execute`); `denied` refuses it there. Recordings:
 * test/fixtures/streams/acp-copilot/.
 */
export const spec: LiveSpec = {
  ...copilot,
  adapter: 'acp-copilot',
  create: () => copilotAcpAdapter(),
  cases: {
    ...copilot.cases,
    tool: { prompt: WRITE_PROMPT, shell: { command: WRITE_COMMAND } },
    denied: {
      prompt: WRITE_PROMPT,
      shell: { command: WRITE_COMMAND },
      policy: { default: 'allow', rules: [{ tool: 'execute', decision: 'deny' }] },
    },
  },
};

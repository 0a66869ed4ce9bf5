import { opencodeAcpAdapter } from '../../../src/adapters/protocols/acp/agents/opencode-acp.ts';
import type { LiveSpec } from '../live-spec.ts';
import { spec as opencode } from './opencode.live.ts';

const WRITE_COMMAND = 'echo agent-mux-live > agent-mux-live.txt';
const WRITE_PROMPT = `Run the shell command \`${WRITE_COMMAND}\` and tell me what happened.`;

/**
 * Opencode in ACP mode (`opencode acp`), with the headless spec's config (a `fake` provider). Every tool is
 * `ask` in the inline config, so the shell call reaches the client as `session/request_permission`;
 * the `denied` case denies it there (ACP kind `execute`). Recordings: test/fixtures/streams/acp-opencode/.
 */
export const spec: LiveSpec = {
  ...opencode,
  adapter: 'acp-opencode',
  create: () => opencodeAcpAdapter(),
  cases: {
    ...opencode.cases,
    tool: { prompt: WRITE_PROMPT, shell: { command: WRITE_COMMAND } },
    denied: {
      prompt: WRITE_PROMPT,
      shell: { command: WRITE_COMMAND },
      policy: { default: 'allow', rules: [{ tool: 'execute', decision: 'deny' }] },
    },
  },
};

import { kiloAcpAdapter } from '../../../src/adapters/protocols/acp/agents/opencode-acp.ts';
import type { LiveSpec } from '../live-spec.ts';
import { spec as kilo } from './kilo.live.ts';

const WRITE_COMMAND = 'echo agent-mux-live > agent-mux-live.txt';
const WRITE_PROMPT = `Run the shell command \`${WRITE_COMMAND}\` and tell me what happened.`;

/**
 * Kilo Code CLI in ACP mode (`kilo acp`), with the headless spec's config (a `fake` provider). Every tool is
 * `ask` in the inline config, so the shell call reaches the client as `session/request_permission`;
 * the `denied` case denies it there (ACP kind `execute`). Recordings: test/fixtures/streams/acp-kilo/.
 */
export const spec: LiveSpec = {
  ...kilo,
  adapter: 'acp-kilo',
  create: () => kiloAcpAdapter(),
  cases: {
    ...kilo.cases,
    tool: { prompt: WRITE_PROMPT, shell: { command: WRITE_COMMAND } },
    denied: {
      prompt: WRITE_PROMPT,
      shell: { command: WRITE_COMMAND },
      policy: { default: 'allow', rules: [{ tool: 'execute', decision: 'deny' }] },
    },
  },
};

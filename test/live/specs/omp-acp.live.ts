import { ompAcpAdapter } from '../../../src/adapters/protocols/acp/agents/omp-acp.ts';
import type { LiveSpec } from '../live-spec.ts';
import { spec as omp } from './omp.live.ts';

const WRITE_COMMAND = 'echo agent-mux-live > agent-mux-live.txt';
const WRITE_PROMPT = `Run the shell command \`${WRITE_COMMAND}\` and tell me what happened.`;

/**
 * omp 18.2.3 in ACP mode (`omp --mode acp`), with the headless spec's config and Bun. The `denied`
 * case denies the shell call in the client (omp's ACP kind `execute`). Recordings:
 * test/fixtures/streams/acp-omp/.
 */
export const spec: LiveSpec = {
  ...omp,
  adapter: 'acp-omp',
  create: () => ompAcpAdapter(),
  cases: {
    ...omp.cases,
    tool: { prompt: WRITE_PROMPT, shell: { command: WRITE_COMMAND } },
    denied: {
      prompt: WRITE_PROMPT,
      shell: { command: WRITE_COMMAND },
      policy: { default: 'allow', rules: [{ tool: 'execute', decision: 'deny' }] },
    },
  },
};

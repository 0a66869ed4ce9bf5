import { join } from 'node:path';
import {
  CODEX_ACP_NPM_PACKAGE,
  CODEX_ACP_TESTED_VERSION,
  codexAcpAdapter,
} from '../../../src/adapters/protocols/acp/agents/codex-acp.ts';
import { cliDir } from '../cli-cache.ts';
import type { LiveSpec } from '../live-spec.ts';
import { spec as codex } from './codex.live.ts';

/** A command that writes: Codex runs read-only commands (`echo`) without asking in every mode. */
const WRITE_COMMAND = 'echo agent-mux-live > agent-mux-live.txt';
/**
 * In read-only mode the sandbox refuses the write, and Codex asks only when the model requests
 * escalation (`sandbox_permissions: "require_escalated"` with a justification), as its tool schema tells it to.
 */
const WRITE_CALL = {
  command: WRITE_COMMAND,
  extraArgs: { sandbox_permissions: 'require_escalated', justification: 'Write the marker file in the workspace.' },
};
const WRITE_PROMPT = `Run the shell command \`${WRITE_COMMAND}\` and tell me what happened.`;

/**
 * Codex 0.169.0 over ACP through `@agentclientprotocol/codex-acp`, `CODEX_PATH` pointing at the
 * Codex the headless spec records (installed into the same CLI cache), with the same
 * `~/.codex/config.toml` (a `fake` Responses provider). Recordings: test/fixtures/streams/acp-codex/.
 */
export const spec: LiveSpec = {
  ...codex,
  adapter: 'acp-codex',
  create: () => codexAcpAdapter(),
  npmPackage: CODEX_ACP_NPM_PACKAGE,
  version: CODEX_ACP_TESTED_VERSION,
  binName: 'codex-acp',
  cases: {
    ...codex.cases,
    tool: { prompt: WRITE_PROMPT, shell: WRITE_CALL },
    denied: {
      prompt: WRITE_PROMPT,
      shell: WRITE_CALL,
      policy: { default: 'allow', rules: [{ tool: 'execute', decision: 'deny' }] },
    },
  },
  async setup(ctx) {
    const { env } = await codex.setup(ctx);
    return { env: { ...env, CODEX_PATH: join(cliDir(codex), 'node_modules', '.bin', 'codex') } };
  },
};

import { join } from 'node:path';
import {
  CODEX_ACP_NPM_PACKAGE,
  CODEX_ACP_TESTED_VERSION,
  codexAcpAdapter,
} from '../../../src/adapters/agents/codex/codex-acp.ts';
import { acpWriteCases, WRITE_COMMAND } from '../acp-write-cases.ts';
import { cliDir } from '../cli-cache.ts';
import type { LiveSpec } from '../live-spec.ts';
import { spec as codex } from './codex.live.ts';

/**
 * In read-only mode the sandbox refuses the write, and Codex asks only when the model requests
 * escalation (`sandbox_permissions: "require_escalated"` with a justification), as its tool schema tells it to.
 */
const WRITE_CALL = {
  command: WRITE_COMMAND,
  extraArgs: { sandbox_permissions: 'require_escalated', justification: 'Write the marker file in the workspace.' },
};

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
  cases: acpWriteCases(codex.cases, { shell: WRITE_CALL }),
  async setup(ctx) {
    const { env } = await codex.setup(ctx);
    return { env: { ...env, CODEX_PATH: join(cliDir(codex), 'node_modules', '.bin', 'codex') } };
  },
};

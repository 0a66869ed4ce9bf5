import { join } from 'node:path';
import {
  CLAUDE_ACP_NPM_PACKAGE,
  CLAUDE_ACP_TESTED_VERSION,
  claudeAcpAdapter,
} from '../../../src/adapters/agents/claude/claude-acp.ts';
import { acpWriteCases } from '../acp-write-cases.ts';
import { cliDir } from '../cli-cache.ts';
import type { LiveSpec } from '../live-spec.ts';
import { spec as claude } from './claude.live.ts';

/**
 * Claude Code 2.1.330 over ACP through `@agentclientprotocol/claude-agent-acp` 0.101.0,
 * `CLAUDE_CODE_EXECUTABLE` pointing at the Claude the headless spec records (same CLI cache). The
 * launcher was installed into the cache with `--omit=optional` (its SDK's 157 MB platform binary is
 * not needed then). Recordings: test/fixtures/streams/acp-claude/.
 */
export const spec: LiveSpec = {
  ...claude,
  adapter: 'acp-claude',
  create: () => claudeAcpAdapter(),
  npmPackage: CLAUDE_ACP_NPM_PACKAGE,
  version: CLAUDE_ACP_TESTED_VERSION,
  binName: 'claude-agent-acp',
  allowScripts: [],
  variesBetweenRuns:
    'claude-agent-acp adds a warning naming the fake server with its port to the answer, and its USD varies from run to run (0.0019 or 0.0029 for the same turn)',
  cases: acpWriteCases(claude.cases, { deniedTool: 'Bash' }),
  async setup(ctx) {
    const { env } = await claude.setup(ctx);
    // As root (this machine), claude-agent-acp's SDK starts Claude with the bypass flag allowed, which
    // Claude refuses under root ("--dangerously-skip-permissions cannot be used with root/sudo
    // privileges", `startupFailureReason: bypass_root`) unless IS_SANDBOX is set. A runner is not root.
    const sandbox: Record<string, string> = process.getuid?.() === 0 ? { IS_SANDBOX: '1' } : {};
    return {
      env: { ...env, ...sandbox, CLAUDE_CODE_EXECUTABLE: join(cliDir(claude), 'node_modules', '.bin', 'claude') },
    };
  },
};

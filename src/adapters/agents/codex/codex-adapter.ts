import { join } from 'node:path';
import { type CliAdapterOptions, defineCliAdapter } from '../../shared/define-cli-adapter.ts';
import { codexHome, detectCodexAuth } from './codex-auth.ts';
import { type CodexSandboxMode, codexPlan } from './codex-plan.ts';
import { codexSessionFiles } from './codex-session-files.ts';
import { codexTranslator } from './codex-translator.ts';

/** Codex CLI's npm package. */
export const CODEX_NPM_PACKAGE = '@openai/codex';
/** The Codex CLI version recorded live. */
export const CODEX_TESTED_VERSION = '0.169.0';

/** The options of {@link codexAdapter}. */
export interface CodexAdapterOptions extends CliAdapterOptions {
  /** The executable (default `codex`). */
  command?: string;
  /** The sandbox when the policy allows the shell (default `workspace-write`). */
  sandbox?: CodexSandboxMode;
}

/** OpenAI's Codex CLI, headless: `codex -a never exec --json … -`, prompt on stdin. */
export const codexAdapter = defineCliAdapter<CodexAdapterOptions>({
  id: 'codex',
  // `codex exec` cannot ask anyone (the policy becomes sandbox flags); over ACP Codex asks.
  approvingMode: 'codex-acp',
  // The policy's `shell`, `write_file`, `read_file` as this agent's own tools (policy-for-agent.ts).
  toolNames: { shell: ['exec_command'], write_file: ['apply_patch'] },
  displayName: 'Codex CLI',
  // True to `codex` 0.169.0 as run here against a local Responses server (src/adapters/agents/codex/README.md).
  capabilities: {
    // `codex exec resume <id>` and `codex exec fork <id>`.
    resume: true,
    fork: true,
    // `model_reasoning_effort`; reasoning summaries arrive as `reasoning` items when the model sends them.
    thinking: 'model-dependent',
    // Streamable HTTP MCP servers through `-c mcp_servers.<name>.url=…` with a bearer token env var.
    mcp: true,
    // `codex exec` cannot ask anyone: the policy becomes sandbox / tool flags (see codexPermissions).
    approvals: 'none',
    sessionPersistence: 'file',
    // Whole items as they start and complete (messages, reasoning, commands, MCP calls); no token deltas.
    streaming: 'full',
  },
  program: {
    command: 'codex',
    minVersion: CODEX_TESTED_VERSION,
    npmPackage: CODEX_NPM_PACKAGE,
    install: [{ type: 'brew', command: 'brew install --cask codex', platforms: ['darwin'] }],
    testedVersion: CODEX_TESTED_VERSION,
    verifiedLive: true,
  },
  costModel: 'openai/gpt-5-codex',
  secretEnv: ['OPENAI_API_KEY', 'CODEX_API_KEY'],
  // It reads nothing from the repository beyond the common set (checked against the CLI).
  keyInputs: { 'openai-api-key': 'OPENAI_API_KEY' },
  readsFromRepository: [],
  sessionDir: (env) => join(codexHome(env), 'sessions'),
  sessionFiles: codexSessionFiles,
  detectAuth: detectCodexAuth,
  plan: (ctx, { command, sandbox }) => codexPlan(ctx, { command, sandbox }),
  translator: codexTranslator,
});

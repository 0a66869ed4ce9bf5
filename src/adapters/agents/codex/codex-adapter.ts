import { join } from 'node:path';
import { type CliAdapterOptions, defineCliAdapter } from '../../shared/define-cli-adapter.ts';
import { codexAppServerController } from './codex-app-server.ts';
import { codexHome, detectCodexAuth } from './codex-auth.ts';
import { type CodexSandboxMode, codexFirstTurnInput, codexPlan } from './codex-plan.ts';
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

/**
 * OpenAI's Codex CLI, headless: `codex app-server`, the prompt as a turn and users' messages mid-run as
 * `turn/steer` (codex-app-server.ts), approval policy `never` as `codex exec -a never` had.
 */
export const codexAdapter = defineCliAdapter<CodexAdapterOptions>({
  id: 'codex',
  // Headless, Codex runs with approval policy `never` (the policy becomes sandbox flags); over ACP Codex asks.
  approvingMode: 'codex-acp',
  // The policy's `shell`, `write_file`, `read_file` as this agent's own tools (policy-for-agent.ts).
  toolNames: { shell: ['exec_command'], write_file: ['apply_patch'] },
  displayName: 'Codex CLI',
  // True to `codex` 0.169.0 as run here against a local Responses server (src/adapters/agents/codex/README.md).
  capabilities: {
    // `thread/resume` and `thread/fork`.
    resume: true,
    fork: true,
    // `model_reasoning_effort`; reasoning summaries arrive as `reasoning` items when the model sends them.
    thinking: 'model-dependent',
    // Streamable HTTP MCP servers through `-c mcp_servers.<name>.url=…` with a bearer token env var.
    mcp: true,
    // Approval policy `never`: the policy becomes sandbox / tool flags (see codexPermissions).
    approvals: 'none',
    sessionPersistence: 'file',
    // `turn/steer`: taken after the current step's tool calls, before the next model request.
    steering: true,
    // Items as they start and complete (commands, MCP calls), message and reasoning text as it streams.
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
  controller: (io, ctx) => codexAppServerController(io, { input: codexFirstTurnInput(ctx) }),
});

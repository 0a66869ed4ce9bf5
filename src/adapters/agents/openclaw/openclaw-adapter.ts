import { defineCliAdapter } from '../../shared/define-cli-adapter.ts';
import { detectOpenclawAuth, OPENCLAW_KEY_ENV } from './openclaw-auth.ts';
import { openclawController } from './openclaw-controller.ts';
import { OPENCLAW_MCP_TOKEN_ENV, openclawPlan, openclawRunsDir } from './openclaw-plan.ts';
import { openclawTranslator } from './openclaw-translator.ts';

/** OpenClaw's embedded agent, headless: `openclaw agent exec --message-file - --json`, prompt on stdin. */
export const openclawAdapter = defineCliAdapter({
  id: 'openclaw',
  // The policy's `shell`, `write_file`, `read_file` as this agent's own tools (policy-for-agent.ts).
  toolNames: { shell: ['exec', 'process'], write_file: ['write', 'edit', 'apply_patch'], read_file: ['read'] },
  displayName: 'OpenClaw',
  // True to `openclaw` 2026.9.6 as run here against a local Anthropic Messages server (src/adapters/agents/openclaw/README.md).
  capabilities: {
    // A new turn runs `agent exec --state-dir <per-run dir>`; `agent --local --session-id` continues it.
    resume: true,
    fork: false,
    // `--thinking`, honoured where the provider/model supports it.
    thinking: 'model-dependent',
    // `mcp.servers.<name>` with `transport: streamable-http` and headers, in an overlay config.
    mcp: true,
    // The headless paths cannot ask anyone: the policy becomes `tools.allow` / `tools.deny`.
    approvals: 'none',
    // Pipes work: `--json` reserves stdout for the envelope, diagnostics go to stderr (no PTY needed).
    pty: 'never',
    sessionPersistence: 'sqlite',
    // One JSON envelope when the turn is over: no deltas, no tool events.
    streaming: 'none',
  },
  program: {
    command: 'openclaw',
    minVersion: '2026.9.6',
    npmPackage: 'openclaw',
    npmInstall: {
      notes: 'Needs Node >= 24.16 (< 25) or >= 26.1; on older Node npm installs a placeholder openclaw@0.0.1.',
    },
    testedVersion: '2026.9.6',
    verifiedLive: true,
  },
  costModel: 'anthropic/claude-sonnet-4-6',
  secretEnv: [...OPENCLAW_KEY_ENV, OPENCLAW_MCP_TOKEN_ENV],
  // The workspace bootstrap files injected into the system prompt on every turn, its daily memory
  // and its workspace skills, at the top of the workspace (the run's cwd).
  keyInputs: { 'openrouter-api-key': 'OPENROUTER_API_KEY' },
  readsFromRepository: [
    '/SOUL.md',
    '/TOOLS.md',
    '/IDENTITY.md',
    '/USER.md',
    '/HEARTBEAT.md',
    '/BOOTSTRAP.md',
    '/MEMORY.md',
    '/memory/',
    '/skills/',
  ],
  sessionDir: openclawRunsDir,
  detectAuth: detectOpenclawAuth,
  plan: (ctx, { command }) => openclawPlan(ctx, command),
  translator: openclawTranslator,
  controller: openclawController,
});

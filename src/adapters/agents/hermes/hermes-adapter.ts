import { join } from 'node:path';
import { defineCliAdapter } from '../../shared/define-cli-adapter.ts';
import { detectHermesAuth, HERMES_KEY_ENV } from './hermes-auth.ts';
import { hermesHome, hermesPlan } from './hermes-plan.ts';
import { hermesTranslator } from './hermes-translator.ts';

/** NousResearch's hermes-agent, headless: `hermes chat --query-file - --format stream-json`, prompt on stdin. */
export const hermesAdapter = defineCliAdapter({
  id: 'hermes',
  // The policy's `shell`, `write_file`, `read_file` as this agent's own tools (policy-for-agent.ts).
  toolNames: {
    shell: ['terminal', 'process', 'execute_code', 'delegate_task'],
    write_file: ['write_file', 'patch'],
    read_file: ['read_file', 'search_files'],
  },
  displayName: 'Hermes Agent',
  // Built from NousResearch/hermes-agent's source (hermes_cli/_parser.py, hermes_cli/stream_json.py)
  // and docs only: hermes is a Python package and PyPI is unreachable here, so it was never run
  // (docs/adapters/hermes.md).
  capabilities: {
    // `--resume <session_id>`; no fork flag.
    resume: true,
    fork: false,
    // `--reasoning none|minimal|low|medium|high|xhigh|max|ultra`, but stream-json carries no reasoning.
    thinking: 'model-dependent',
    // Hermes is an MCP client, but only through `mcp_servers` in $HERMES_HOME/config.yaml; no flag or
    // env var points one run at another config, so the run's MCP server is not wired (see the docs).
    mcp: false,
    // Headless stream-json runs cannot ask anyone: the policy becomes `--toolsets` and `--yolo`.
    approvals: 'none',
    // Native Windows is not supported (WSL2).
    platforms: ['darwin', 'linux'],
    sessionPersistence: 'sqlite',
    // Text deltas and tool starts/results; no reasoning.
    streaming: 'full',
  },
  program: {
    command: 'hermes',
    // `--format stream-json` landed on main in August 2026 (v0.22 line); older releases lack it.
    minVersion: '0.22.0',
    install: [
      { type: 'pip', command: 'pip install hermes-agent', notes: 'Python >= 3.11.' },
      {
        type: 'curl',
        command: 'curl -fsSL https://hermes-agent.nousresearch.com/install.sh | bash',
        platforms: ['darwin', 'linux'],
      },
    ],
    verifiedLive: false,
  },
  costModel: 'anthropic/claude-sonnet-4-6',
  secretEnv: HERMES_KEY_ENV,
  sessionDir: (env) => join(hermesHome(env), 'state.db'),
  detectAuth: detectHermesAuth,
  plan: (ctx, { command }) => hermesPlan(ctx, command),
  translator: hermesTranslator,
});

import { join } from 'node:path';
import { type CliAdapterOptions, defineCliAdapter } from '../../shared/define-cli-adapter.ts';
import { COPILOT_PROVIDER_SECRET_ENV, COPILOT_TOKEN_ENV, copilotHome, detectCopilotAuth } from './copilot-auth.ts';
import { copilotController } from './copilot-controller.ts';
import { copilotPlan } from './copilot-plan.ts';
import { copilotTranslator } from './copilot-translator.ts';

/** The options of {@link copilotAdapter}. */
export interface CopilotAdapterOptions extends CliAdapterOptions {
  /**
   * The executable (default `copilot`). `gh` runs it as `gh copilot -- <args>` (GitHub CLI's launcher
   * for the same Copilot CLI; not verified live). The retired `gh-copilot` extension (suggest/explain)
   * has no agent mode and is not supported.
   */
  command?: string;
}

/** GitHub Copilot CLI, headless: `copilot --output-format json`, prompt on stdin. */
export const copilotAdapter = defineCliAdapter<CopilotAdapterOptions>({
  id: 'copilot',
  // The policy's `shell`, `write_file`, `read_file` as this agent's own tools (policy-for-agent.ts).
  toolNames: { shell: ['bash'], write_file: ['write', 'create', 'edit'], read_file: ['view'] },
  displayName: 'GitHub Copilot CLI',
  // True to `copilot` 1.0.102 as recorded live (src/adapters/agents/copilot/README.md).
  capabilities: {
    // `--resume=<id>` continues a session; there is no fork flag.
    resume: true,
    fork: false,
    // `--reasoning-effort`, and `assistant.reasoning*` events, for models that reason.
    thinking: 'model-dependent',
    // `--additional-mcp-config` (streamable HTTP with headers).
    mcp: true,
    // No run-time approval hook in prompt mode: the policy becomes --allow-tool/--deny-tool flags.
    approvals: 'none',
    sessionPersistence: 'file',
    streaming: 'full',
  },
  program: {
    command: 'copilot',
    versionArgs: (command) => (/(^|[/\\])gh(\.exe)?$/.test(command) ? ['copilot', '--', '--version'] : ['--version']),
    // `--output-format json` and `--usage-output-file` are in 1.0.x.
    minVersion: '1.0.0',
    npmPackage: '@github/copilot',
    install: [
      { type: 'brew', command: 'brew install copilot-cli', platforms: ['darwin', 'linux'] },
      { type: 'curl', command: 'curl -fsSL https://gh.io/copilot-install | bash', platforms: ['darwin', 'linux'] },
    ],
    testedVersion: '1.0.102',
    verifiedLive: true,
  },
  secretEnv: [...COPILOT_TOKEN_ENV, ...COPILOT_PROVIDER_SECRET_ENV],
  // The repository's hooks and skills (`.github/hooks/`, `.github/skills/`).
  keyInputs: { 'copilot-token': 'COPILOT_GITHUB_TOKEN' },
  readsFromRepository: ['.github/hooks/', '.github/skills/'],
  sessionDir: (env) => join(copilotHome(env), 'session-state'),
  detectAuth: detectCopilotAuth,
  plan: (ctx, { command }) => copilotPlan(command, ctx),
  translator: copilotTranslator,
  controller: copilotController,
});

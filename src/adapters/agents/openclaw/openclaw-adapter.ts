import { ADAPTER_SPECIFICATION_VERSION, type Adapter, type Capabilities } from '../../../core/adapter/index.ts';
import { detectOpenclawAuth, OPENCLAW_KEY_ENV } from './openclaw-auth.ts';
import { openclawController } from './openclaw-controller.ts';
import { OPENCLAW_MCP_TOKEN_ENV, openclawPlan, openclawRunsDir } from './openclaw-plan.ts';
import { openclawTranslator } from './openclaw-translator.ts';

export const OPENCLAW_NPM_PACKAGE = 'openclaw';
export const OPENCLAW_TESTED_VERSION = '2026.9.6';

/** True to `openclaw` 2026.9.6 as run here against a local Anthropic Messages server (docs/adapters/openclaw.md). */
export const openclawCapabilities: Capabilities = {
  // A new turn runs `agent exec --state-dir <per-run dir>`; `agent --local --session-id` continues it.
  resume: true,
  fork: false,
  // `--thinking`, honoured where the provider/model supports it.
  thinking: 'model-dependent',
  // `mcp.servers.<name>` with `transport: streamable-http` and headers, in an overlay config.
  mcp: true,
  // The headless paths cannot ask anyone: the policy becomes `tools.allow` / `tools.deny`.
  approvals: 'none',
  // Pipes work: `--json` reserves stdout for the envelope, diagnostics go to stderr (seed 003 said PTY).
  pty: 'never',
  platforms: ['darwin', 'linux', 'win32'],
  sessionPersistence: 'sqlite',
  execModel: 'run-to-completion',
  nativeSessionIds: true,
  turnCompletion: true,
  // One JSON envelope when the turn is over: no deltas, no tool events.
  streaming: 'none',
};

export interface OpenclawAdapterOptions {
  /** The executable (default `openclaw`). */
  command?: string;
}

/** OpenClaw's embedded agent, headless: `openclaw agent exec --message-file - --json`, prompt on stdin. */
export function openclawAdapter(options: OpenclawAdapterOptions = {}): Adapter {
  const command = options.command ?? 'openclaw';
  return {
    specificationVersion: ADAPTER_SPECIFICATION_VERSION,
    id: 'openclaw',
    displayName: 'OpenClaw',
    capabilities: openclawCapabilities,
    program: {
      command,
      versionArgs: ['--version'],
      minVersion: OPENCLAW_TESTED_VERSION,
      install: [
        {
          type: 'npm',
          command: `npm install -g ${OPENCLAW_NPM_PACKAGE}`,
          notes: 'Needs Node >= 24.16 (< 25) or >= 26.1; on older Node npm installs a placeholder openclaw@0.0.1.',
        },
      ],
      npmPackage: OPENCLAW_NPM_PACKAGE,
      testedVersion: OPENCLAW_TESTED_VERSION,
      verifiedLive: true,
    },
    costModel: 'anthropic/claude-sonnet-4-6',
    secretEnv: [...OPENCLAW_KEY_ENV, OPENCLAW_MCP_TOKEN_ENV],
    sessionDir: openclawRunsDir(process.env),
    detectAuth: detectOpenclawAuth,
    launch: {
      kind: 'process',
      plan: (ctx) => openclawPlan(ctx, command),
      translator: openclawTranslator,
      controller: openclawController,
    },
  };
}

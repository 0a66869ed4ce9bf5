import { ADAPTER_SPECIFICATION_VERSION, type Adapter, type Capabilities } from '../../../core/adapter/index.ts';
import { detectOpenCodeAuth, openCodeDataDir, openCodeProviderKeyEnv } from './opencode-auth.ts';
import { openCodePlan, opencodeFlavor } from './opencode-plan.ts';
import { openCodeTranslator } from './opencode-translator.ts';

export const OPENCODE_NPM_PACKAGE = 'opencode-ai';
export const OPENCODE_TESTED_VERSION = '1.18.33';

/** True to `opencode run` 1.18.33 as run here against a local Chat Completions server (docs/adapters/opencode.md). */
export const opencodeCapabilities: Capabilities = {
  // `--session <id>` continues a session; `--fork` with it forks first.
  resume: true,
  fork: true,
  // `--variant` is per model; `reasoning` parts are printed with `--thinking`.
  thinking: 'model-dependent',
  // `mcp.<name>` remote servers (streamable HTTP) with headers, through the inline config.
  mcp: true,
  // `opencode run` auto-rejects every `ask` (no hook to relay it): the policy becomes `permission` config.
  approvals: 'none',
  pty: 'never',
  platforms: ['darwin', 'linux', 'win32'],
  sessionPersistence: 'sqlite',
  execModel: 'run-to-completion',
  nativeSessionIds: true,
  turnCompletion: true,
  // Whole parts as they end: a text part, a reasoning part, a finished tool call; no token deltas.
  streaming: 'full',
};

export interface OpenCodeAdapterOptions {
  /** The executable (default `opencode`). */
  command?: string;
}

/** SST's OpenCode, headless: `opencode run --format json …`, prompt on stdin. */
export function opencodeAdapter(options: OpenCodeAdapterOptions = {}): Adapter {
  const command = options.command ?? 'opencode';
  return {
    specificationVersion: ADAPTER_SPECIFICATION_VERSION,
    id: 'opencode',
    displayName: 'OpenCode',
    capabilities: opencodeCapabilities,
    program: {
      command,
      versionArgs: ['--version'],
      minVersion: '1.0.0',
      install: [
        { type: 'npm', command: `npm install -g ${OPENCODE_NPM_PACKAGE}` },
        { type: 'curl', command: 'curl -fsSL https://opencode.ai/install | bash', platforms: ['darwin', 'linux'] },
        { type: 'brew', command: 'brew install sst/tap/opencode', platforms: ['darwin', 'linux'] },
      ],
      npmPackage: OPENCODE_NPM_PACKAGE,
      testedVersion: OPENCODE_TESTED_VERSION,
      verifiedLive: true,
    },
    // Any provider/model: no single pricing key; the CLI reports USD per step when it knows the price.
    costModel: undefined,
    secretEnv: ['OPENCODE_API_KEY', ...openCodeProviderKeyEnv],
    sessionDir: openCodeDataDir('opencode', process.env),
    detectAuth: detectOpenCodeAuth,
    launch: {
      kind: 'process',
      plan: (ctx) => openCodePlan(ctx, { ...opencodeFlavor, command }),
      translator: openCodeTranslator,
    },
  };
}

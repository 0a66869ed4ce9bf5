import type { Capabilities } from '../../../core/adapter/index.ts';
import { cliCapabilities } from '../../shared/cli-capabilities.ts';
import { type CliAdapterOptions, defineCliAdapter } from '../../shared/define-cli-adapter.ts';
import { detectOpenCodeAuth } from './opencode-auth.ts';
import { opencodeFlavor } from './opencode-plan.ts';
import { openCodeStyleCli } from './opencode-style-cli.ts';

/** OpenCode's npm package. */
export const OPENCODE_NPM_PACKAGE = 'opencode-ai';
/** The OpenCode version recorded live. */
export const OPENCODE_TESTED_VERSION = '1.18.33';

/** True to `opencode run` 1.18.33 as run here against a local Chat Completions server (docs/adapters/opencode.md). */
export const opencodeCapabilities: Capabilities = cliCapabilities({
  // `--session <id>` continues a session; `--fork` with it forks first.
  resume: true,
  fork: true,
  // `--variant` is per model; `reasoning` parts are printed with `--thinking`.
  thinking: 'model-dependent',
  // `mcp.<name>` remote servers (streamable HTTP) with headers, through the inline config.
  mcp: true,
  // `opencode run` auto-rejects every `ask` (no hook to relay it): the policy becomes `permission` config.
  approvals: 'none',
  sessionPersistence: 'sqlite',
  // Whole parts as they end: a text part, a reasoning part, a finished tool call; no token deltas.
  streaming: 'full',
});

/** The options of {@link opencodeAdapter}: `command`, the executable (default `opencode`). */
export interface OpenCodeAdapterOptions extends CliAdapterOptions {}

/** SST's OpenCode, headless: `opencode run --format json …`, prompt on stdin. */
export const opencodeAdapter = defineCliAdapter<OpenCodeAdapterOptions>({
  id: 'opencode',
  displayName: 'OpenCode',
  capabilities: opencodeCapabilities,
  program: {
    command: 'opencode',
    minVersion: '1.0.0',
    npmPackage: OPENCODE_NPM_PACKAGE,
    install: [
      { type: 'curl', command: 'curl -fsSL https://opencode.ai/install | bash', platforms: ['darwin', 'linux'] },
      { type: 'brew', command: 'brew install sst/tap/opencode', platforms: ['darwin', 'linux'] },
    ],
    testedVersion: OPENCODE_TESTED_VERSION,
    verifiedLive: true,
  },
  // Any provider/model: no single pricing key; the CLI reports USD per step when it knows the price.
  costModel: undefined,
  ...openCodeStyleCli(opencodeFlavor, ['OPENCODE_API_KEY']),
  detectAuth: detectOpenCodeAuth,
});

import { type CliAdapterOptions, defineCliAdapter } from '../../shared/define-cli-adapter.ts';
import { detectOpenCodeAuth } from './opencode-auth.ts';
import { opencodeFlavor } from './opencode-plan.ts';
import { openCodeStyleCli } from './opencode-style-cli.ts';

/** OpenCode's npm package. */
export const OPENCODE_NPM_PACKAGE = 'opencode-ai';
/** The OpenCode version recorded live. */
export const OPENCODE_TESTED_VERSION = '1.18.33';

/** The options of {@link opencodeAdapter}: `command`, the executable (default `opencode`). */
export interface OpenCodeAdapterOptions extends CliAdapterOptions {}

/** SST's OpenCode, headless: `opencode run --format json …`, prompt on stdin. */
export const opencodeAdapter = defineCliAdapter<OpenCodeAdapterOptions>({
  id: 'opencode',
  displayName: 'OpenCode',
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

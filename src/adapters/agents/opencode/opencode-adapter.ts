import { type CliProgramFacts, defineCliAdapter } from '../../shared/define-cli-adapter.ts';
import { detectOpenCodeAuth } from './opencode-auth.ts';
import { opencodeFlavor } from './opencode-plan.ts';
import { openCodeStyleCli } from './opencode-style-cli.ts';

/** The `opencode` program, run headless here and as a server by opencode-http. */
export const OPENCODE_PROGRAM: CliProgramFacts = {
  command: 'opencode',
  minVersion: '1.0.0',
  npmPackage: 'opencode-ai',
  install: [
    { type: 'curl', command: 'curl -fsSL https://opencode.ai/install | bash', platforms: ['darwin', 'linux'] },
    { type: 'brew', command: 'brew install sst/tap/opencode', platforms: ['darwin', 'linux'] },
  ],
  testedVersion: '1.18.33',
  verifiedLive: true,
};

/** SST's OpenCode, headless: `opencode run --format json …`, prompt on stdin. */
export const opencodeAdapter = defineCliAdapter({
  id: 'opencode',
  // `opencode run` auto-rejects every `ask`; over ACP OpenCode asks.
  approvingMode: 'opencode-acp',
  // The policy's `shell`, `write_file`, `read_file` as this agent's own tools (policy-for-agent.ts).
  toolNames: { shell: ['bash'], write_file: ['write', 'edit', 'patch'], read_file: ['read'] },
  displayName: 'OpenCode',
  program: OPENCODE_PROGRAM,
  // Any provider/model: no single pricing key; the CLI reports USD per step when it knows the price.
  costModel: undefined,
  ...openCodeStyleCli(opencodeFlavor, ['OPENCODE_API_KEY']),
  detectAuth: detectOpenCodeAuth,
});

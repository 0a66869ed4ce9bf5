import { kiloAdapter } from '../../../src/adapters/agents/kilo/index.ts';
import { type LiveSpec, pinnedPackage } from '../live-spec.ts';
import { openCodeStyleSetup, TOOL_PROMPT } from './opencode.live.ts';

/** Kilo reads `$XDG_CONFIG_HOME/kilo/kilo.json` the way OpenCode reads `opencode/opencode.json`. */
export const spec: LiveSpec = {
  adapter: 'kilo',
  create: () => kiloAdapter(),
  ...pinnedPackage(kiloAdapter()),
  binName: 'kilo',
  provider: 'openai-chat',
  timeoutMs: 120_000,
  cases: {
    plain: { prompt: 'Say hello in one sentence.' },
    tool: { prompt: TOOL_PROMPT },
    denied: { prompt: TOOL_PROMPT, policy: { default: 'allow', rules: [{ tool: 'bash', decision: 'deny' }] } },
    resume: { prompt: 'Remember the number 42.' },
    'auth-401': { prompt: 'Say hello.' },
    'rate-429': { prompt: 'Say hello.' },
  },
  setup: openCodeStyleSetup('kilo', 'kilo.json', 'KILO'),
  resumeRequest: (sessionId) => ({ prompt: 'What number did I ask you to remember?', resumeSessionId: sessionId }),
};

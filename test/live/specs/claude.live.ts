import { claudeAdapter } from '../../../src/adapters/agents/claude/index.ts';
import { type LiveSpec, pinnedPackage } from '../live-spec.ts';

const TOOL_PROMPT = 'Run the shell command `echo agent-mux-live` and tell me what it printed.';

/**
 * Claude Code reaches the fake server through `ANTHROPIC_BASE_URL` (no `/v1`: it adds
 * `/v1/messages?beta=true`) with a dummy `ANTHROPIC_API_KEY`. In the error cases
 * `CLAUDE_CODE_MAX_RETRIES=0` stops its own backoff (10 retries over minutes, 401 included) so that
 * the error surfaces at once. Its postinstall (which npm 11 here ran with a warning) copies the native binary over the `bin` stub.
 */
export const spec: LiveSpec = {
  adapter: 'claude',
  create: () => claudeAdapter(),
  ...pinnedPackage(claudeAdapter()),
  binName: 'claude',
  provider: 'anthropic-messages',
  timeoutMs: 120_000,
  cases: {
    plain: { prompt: 'Say hello in one sentence.' },
    tool: { prompt: TOOL_PROMPT },
    denied: { prompt: TOOL_PROMPT, policy: { default: 'allow', rules: [{ tool: 'Bash', decision: 'deny' }] } },
    resume: { prompt: 'Remember the number 42.' },
    'auth-401': { prompt: 'Say hello.' },
    'rate-429': { prompt: 'Say hello.' },
  },
  async setup({ baseUrl, case: caseName }) {
    const env: Record<string, string> = {
      ANTHROPIC_BASE_URL: baseUrl,
      ANTHROPIC_API_KEY: 'sk-ant-fake-live-key',
    };
    if (caseName === 'auth-401' || caseName === 'rate-429') env.CLAUDE_CODE_MAX_RETRIES = '0';
    return { env };
  },
  resumeRequest: (sessionId) => ({ prompt: 'What number did I ask you to remember?', resumeSessionId: sessionId }),
};

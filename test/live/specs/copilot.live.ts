import { copilotAdapter } from '../../../src/adapters/agents/copilot/index.ts';
import { type LiveSpec, pinnedPackage } from '../live-spec.ts';

/**
 * GitHub Copilot CLI against the fake model server through its bring-your-own-key mode
 * (`copilot help providers`): COPILOT_PROVIDER_BASE_URL with the default `openai` type and
 * `completions` wire API (OpenAI Chat Completions), and COPILOT_OFFLINE=true so it never reaches
 * GitHub (no login, no telemetry, no auto-update). COPILOT_MODEL names a model Copilot knows
 * (`gpt-4.1`) so it configures tools and token limits as for a real one.
 */
export const spec: LiveSpec = {
  adapter: 'copilot',
  create: () => copilotAdapter(),
  ...pinnedPackage(copilotAdapter()),
  binName: 'copilot',
  // rate-429: Copilot retries a 429 five times with back-off before giving up.
  timeoutMs: 180_000,
  provider: 'openai-chat',
  cases: {
    plain: { prompt: 'Say hello.', policy: { default: 'allow' } },
    tool: {
      prompt: 'Run `echo agent-mux-live` in the shell, then tell me what it printed.',
      policy: { default: 'allow' },
    },
    denied: {
      prompt: 'Run `echo agent-mux-live` in the shell, then tell me what it printed.',
      // Copilot's permission kind for its shell tools (`bash`, `powershell`) is `shell`.
      policy: { default: 'allow', rules: [{ tool: 'shell', decision: 'deny' }] },
    },
    resume: { prompt: 'Say hello.', policy: { default: 'allow' } },
    'auth-401': { prompt: 'Say hello.', policy: { default: 'allow' } },
    'rate-429': { prompt: 'Say hello.', policy: { default: 'allow' } },
  },
  async setup({ baseUrl }) {
    return {
      env: {
        COPILOT_PROVIDER_BASE_URL: `${baseUrl}/v1`,
        COPILOT_PROVIDER_TYPE: 'openai',
        COPILOT_PROVIDER_API_KEY: 'sk-agent-mux-live-dummy',
        COPILOT_MODEL: 'gpt-4.1',
        COPILOT_OFFLINE: 'true',
        COPILOT_AUTO_UPDATE: 'false',
      },
    };
  },
  resumeRequest: (sessionId) => ({ prompt: 'Say hello again.', resumeSessionId: sessionId }),
};

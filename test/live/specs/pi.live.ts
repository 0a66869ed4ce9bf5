import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { piAdapter } from '../../../src/adapters/agents/pi/index.ts';
import { type LiveSpec, pinnedPackage } from '../live-spec.ts';

const TOOL_PROMPT = 'Run the shell command `echo agent-mux-live` and tell me what it printed.';

/**
 * pi reaches the fake server through a custom provider in `~/.pi/agent/models.json`
 * (api `anthropic-messages`, baseUrl without `/v1`: the Anthropic SDK adds it), made the default
 * by `~/.pi/agent/settings.json`. The key is read from the env var the provider names.
 */
export const spec: LiveSpec = {
  adapter: 'pi',
  create: () => piAdapter(),
  ...pinnedPackage(piAdapter()),
  binName: 'pi',
  provider: 'anthropic-messages',
  timeoutMs: 120_000,
  cases: {
    plain: { prompt: 'Say hello in one sentence.' },
    tool: { prompt: TOOL_PROMPT },
    denied: { prompt: TOOL_PROMPT, policy: { default: 'allow', rules: [{ tool: 'bash', decision: 'deny' }] } },
    resume: { prompt: 'Remember the number 42.' },
    'auth-401': { prompt: 'Say hello.' },
    'rate-429': { prompt: 'Say hello.' },
  },
  async setup({ baseUrl, home }) {
    const agentDir = join(home, '.pi', 'agent');
    mkdirSync(agentDir, { recursive: true });
    const models = {
      providers: {
        fake: {
          baseUrl,
          api: 'anthropic-messages',
          apiKey: 'FAKE_MODEL_API_KEY',
          models: [
            { id: 'claude-fake', name: 'Claude Fake', reasoning: true, contextWindow: 200_000, maxTokens: 8192 },
          ],
        },
      },
    };
    writeFileSync(join(agentDir, 'models.json'), `${JSON.stringify(models, null, 2)}\n`);
    writeFileSync(
      join(agentDir, 'settings.json'),
      `${JSON.stringify({ defaultProvider: 'fake', defaultModel: 'claude-fake' }, null, 2)}\n`,
    );
    return { env: { FAKE_MODEL_API_KEY: 'sk-fake-live-key' } };
  },
  resumeRequest: (sessionId) => ({ prompt: 'What number did I ask you to remember?', resumeSessionId: sessionId }),
};

import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { opencodeAdapter } from '../../../src/adapters/agents/opencode/index.ts';
import { type LiveSetupContext, type LiveSpec, pinnedPackage } from '../live-spec.ts';

export const TOOL_PROMPT = 'Run the shell command `echo agent-mux-live` and tell me what it printed.';

/**
 * A custom provider `fake` (AI SDK `@ai-sdk/openai-compatible`, bundled in the CLI) whose
 * `options.baseURL` is the fake server's `/v1`: the CLI posts Chat Completions there with
 * `Authorization: Bearer <apiKey>`. Written as the global config (`$XDG_CONFIG_HOME/<app>/<file>`);
 * the plan's inline config (permissions) is merged over it. `*_DISABLE_MODELS_FETCH` stops the
 * CLI's attempt to download the models.dev catalogue (no internet here).
 */
export function openCodeStyleSetup(app: string, file: string, envPrefix: string) {
  return async ({ baseUrl, home }: LiveSetupContext): Promise<{ env: Record<string, string> }> => {
    const dir = join(home, '.config', app);
    mkdirSync(dir, { recursive: true });
    const config = {
      provider: {
        fake: {
          npm: '@ai-sdk/openai-compatible',
          name: 'Fake',
          options: { baseURL: `${baseUrl}/v1`, apiKey: 'sk-fake-live-key' },
          models: { 'fake-model': { name: 'Fake Model', tool_call: true } },
        },
      },
      model: 'fake/fake-model',
      small_model: 'fake/fake-model',
    };
    writeFileSync(join(dir, file), `${JSON.stringify(config, null, 2)}\n`);
    return { env: { [`${envPrefix}_DISABLE_MODELS_FETCH`]: '1' } };
  };
}

export const spec: LiveSpec = {
  adapter: 'opencode',
  create: () => opencodeAdapter(),
  ...pinnedPackage(opencodeAdapter()),
  binName: 'opencode',
  provider: 'openai-chat',
  timeoutMs: 120_000,
  cases: {
    plain: { prompt: 'Say hello in one sentence.' },
    tool: { prompt: TOOL_PROMPT },
    // `bash: deny` in the permission config removes the tool from the model's list.
    denied: { prompt: TOOL_PROMPT, policy: { default: 'allow', rules: [{ tool: 'bash', decision: 'deny' }] } },
    resume: { prompt: 'Remember the number 42.' },
    'auth-401': { prompt: 'Say hello.' },
    'rate-429': { prompt: 'Say hello.' },
  },
  setup: openCodeStyleSetup('opencode', 'opencode.json', 'OPENCODE'),
  resumeRequest: (sessionId) => ({ prompt: 'What number did I ask you to remember?', resumeSessionId: sessionId }),
};

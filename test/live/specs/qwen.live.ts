import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { qwenAdapter } from '../../../src/adapters/agents/qwen/index.ts';
import { type LiveSpec, pinnedPackage } from '../live-spec.ts';

const TOOL_PROMPT = 'Run the shell command `echo agent-mux-live` and tell me what it printed.';

/**
 * Qwen Code talks OpenAI Chat Completions to `OPENAI_BASE_URL` (with `/v1`: it posts to
 * `<base>/chat/completions`) with `OPENAI_API_KEY` and `OPENAI_MODEL`; with a key in the
 * environment it picks OpenAI auth on its own. In the error cases its settings.json (under the temp
 * HOME) sets `model.generationConfig.maxRetries: 0`: by default it retries a 429 ten times, 60 s
 * apart and more.
 */
export const spec: LiveSpec = {
  adapter: 'qwen',
  create: () => qwenAdapter(),
  ...pinnedPackage(qwenAdapter()),
  binName: 'qwen',
  provider: 'openai-chat',
  timeoutMs: 120_000,
  cases: {
    plain: { prompt: 'Say hello in one sentence.' },
    tool: { prompt: TOOL_PROMPT },
    denied: {
      prompt: TOOL_PROMPT,
      policy: { default: 'allow', rules: [{ tool: 'run_shell_command', decision: 'deny' }] },
    },
    resume: { prompt: 'Remember the number 42.' },
    'auth-401': { prompt: 'Say hello.' },
    'rate-429': { prompt: 'Say hello.' },
  },
  async setup({ baseUrl, home, case: caseName }) {
    if (caseName === 'auth-401' || caseName === 'rate-429') {
      mkdirSync(join(home, '.qwen'), { recursive: true });
      const settings = { model: { generationConfig: { maxRetries: 0 } } };
      writeFileSync(join(home, '.qwen', 'settings.json'), `${JSON.stringify(settings, null, 2)}\n`);
    }
    return {
      env: {
        OPENAI_API_KEY: 'sk-fake-qwen-live-key',
        OPENAI_BASE_URL: `${baseUrl}/v1`,
        OPENAI_MODEL: 'qwen3-coder-plus',
        QWEN_CODE_SUPPRESS_YOLO_WARNING: '1',
      },
    };
  },
  resumeRequest: (sessionId) => ({ prompt: 'What number did I ask you to remember?', resumeSessionId: sessionId }),
};

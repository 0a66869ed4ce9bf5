import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { geminiAdapter } from '../../../src/adapters/agents/gemini/index.ts';
import { type LiveSpec, pinnedPackage } from '../live-spec.ts';

const TOOL_PROMPT = 'Run the shell command `echo agent-mux-live` and tell me what it printed.';

/**
 * Gemini CLI reaches the fake server through `GOOGLE_GEMINI_BASE_URL` (it calls
 * `/v1beta/models/<model>:streamGenerateContent?alt=sse`) with a dummy `GEMINI_API_KEY`. Its
 * settings.json (under the temp HOME) selects API-key auth (without it the CLI exits 41,
 * "Invalid auth method selected") and pins `model.name`: the default `auto` model first asks a
 * classifier model (`generateContent`, JSON expected) which the fake server does not script. In the
 * error cases `general.maxAttempts: 1` stops its backoff (10 attempts over minutes).
 */
export const spec: LiveSpec = {
  adapter: 'gemini',
  create: () => geminiAdapter(),
  ...pinnedPackage(geminiAdapter()),
  binName: 'gemini',
  provider: 'gemini',
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
    const settings: Record<string, unknown> = {
      security: { auth: { selectedType: 'gemini-api-key' } },
      model: { name: 'gemini-2.5-flash' },
    };
    if (caseName === 'auth-401' || caseName === 'rate-429') settings.general = { maxAttempts: 1 };
    mkdirSync(join(home, '.gemini'), { recursive: true });
    writeFileSync(join(home, '.gemini', 'settings.json'), `${JSON.stringify(settings, null, 2)}\n`);
    return { env: { GEMINI_API_KEY: 'fake-gemini-live-key', GOOGLE_GEMINI_BASE_URL: baseUrl } };
  },
  resumeRequest: (sessionId) => ({ prompt: 'What number did I ask you to remember?', resumeSessionId: sessionId }),
};

import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { codexAdapter } from '../../../src/adapters/agents/codex/index.ts';
import { type LiveSpec, pinnedPackage } from '../live-spec.ts';

const TOOL_PROMPT = 'Run the shell command `echo agent-mux-live` and tell me what it printed.';
const KEY_ENV = 'AGENT_MUX_FAKE_OPENAI_KEY';

/**
 * Codex reaches the fake server through a custom model provider in `~/.codex/config.toml`
 * (`wire_api = "responses"`, `base_url` ending in `/v1`: Codex posts to `<base_url>/responses`),
 * made the default by `model_provider`. OPENAI_BASE_URL is not read for this. The key comes from
 * the env var the provider names. Retries are cut to one so the 401/429 cases end quickly
 * (Codex retries 5 times by default, printing `Reconnecting... n/5` errors).
 */
export const spec: LiveSpec = {
  adapter: 'codex',
  create: () => codexAdapter(),
  ...pinnedPackage(codexAdapter()),
  binName: 'codex',
  provider: 'openai-responses',
  timeoutMs: 120_000,
  cases: {
    plain: { prompt: 'Say hello in one sentence.' },
    tool: { prompt: TOOL_PROMPT },
    // `exec_command` is Codex 0.169's shell tool; a deny removes it (`--disable shell_tool`).
    denied: { prompt: TOOL_PROMPT, policy: { default: 'allow', rules: [{ tool: 'exec_command', decision: 'deny' }] } },
    resume: { prompt: 'Remember the number 42.' },
    'auth-401': { prompt: 'Say hello.' },
    'rate-429': { prompt: 'Say hello.' },
  },
  async setup({ baseUrl, home }) {
    const codexDir = join(home, '.codex');
    mkdirSync(codexDir, { recursive: true });
    const config = [
      'model = "gpt-5.5"',
      'model_provider = "fake"',
      '',
      '[model_providers.fake]',
      'name = "fake"',
      `base_url = ${JSON.stringify(`${baseUrl}/v1`)}`,
      `env_key = "${KEY_ENV}"`,
      'wire_api = "responses"',
      'request_max_retries = 1',
      'stream_max_retries = 1',
      '',
    ].join('\n');
    writeFileSync(join(codexDir, 'config.toml'), config);
    return { env: { [KEY_ENV]: 'sk-fake-live-key' } };
  },
  resumeRequest: (sessionId) => ({ prompt: 'What number did I ask you to remember?', resumeSessionId: sessionId }),
};

import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { openclawAdapter } from '../../../src/adapters/agents/openclaw/index.ts';
import { type LiveSpec, pinnedPackage } from '../live-spec.ts';

const TOOL_PROMPT = 'Run the shell command `echo agent-mux-live` and tell me what it printed.';
const KEY_ENV = 'AGENT_MUX_FAKE_ANTHROPIC_KEY';

/**
 * OpenClaw reaches the fake server through a custom provider in `~/.openclaw/openclaw.json`
 * (`api: "anthropic-messages"`, `baseUrl` without `/v1`: OpenClaw posts to `<baseUrl>/v1/messages`),
 * made the default model by `agents.defaults.model.primary`; the key is `${ENV}`-substituted.
 *
 * Workaround for the fake server: after a tool result OpenClaw appends one more user message
 * (`<<<BEGIN_OPENCLAW_INTERNAL_CONTEXT>>>` with "Active exec sessions" / "Active Subagents"), so a
 * server that looks only at the last message for a `tool_result` never sees one and loops. Those
 * runtime-facts sections are only added while the `process` and `sessions_spawn` tools exist, so the
 * live config denies those two tools (the shell tool `exec` stays).
 *
 * 429: OpenClaw retries a rate-limited call 9 times with growing delays before giving up, hence
 * the long timeout.
 */
export const spec: LiveSpec = {
  adapter: 'openclaw',
  create: () => openclawAdapter(),
  ...pinnedPackage(openclawAdapter()),
  binName: 'openclaw',
  provider: 'anthropic-messages',
  timeoutMs: 360_000,
  cases: {
    plain: { prompt: 'Say hello in one sentence.' },
    tool: { prompt: TOOL_PROMPT },
    // `exec` is OpenClaw's shell tool; a deny becomes `tools.deny: ["exec"]` in the overlay config.
    denied: { prompt: TOOL_PROMPT, policy: { default: 'allow', rules: [{ tool: 'exec', decision: 'deny' }] } },
    resume: { prompt: 'Remember the number 42.' },
    'auth-401': { prompt: 'Say hello.' },
    'rate-429': { prompt: 'Say hello.' },
  },
  async setup({ baseUrl, home }) {
    const dir = join(home, '.openclaw');
    mkdirSync(dir, { recursive: true });
    const config = {
      models: {
        mode: 'replace',
        providers: {
          fake: {
            baseUrl,
            apiKey: `\${${KEY_ENV}}`,
            api: 'anthropic-messages',
            models: [
              {
                id: 'claude-fake',
                name: 'Fake Claude',
                reasoning: false,
                input: ['text'],
                contextWindow: 200_000,
                maxTokens: 4096,
              },
            ],
          },
        },
      },
      agents: { defaults: { model: { primary: 'fake/claude-fake' } } },
      tools: { deny: ['process', 'sessions_spawn'] },
    };
    writeFileSync(join(dir, 'openclaw.json'), `${JSON.stringify(config, null, 2)}\n`);
    return { env: { [KEY_ENV]: 'sk-ant-fake-live-key' } };
  },
  resumeRequest: (sessionId) => ({ prompt: 'What number did I ask you to remember?', resumeSessionId: sessionId }),
};

import { join } from 'node:path';
import { opencodeHttpAdapter } from '../../../src/adapters/agents/opencode-http/index.ts';
import { cliDir } from '../cli-cache.ts';
import { type LiveSpec, pinnedPackage } from '../live-spec.ts';
import { openCodeStyleSetup, TOOL_PROMPT } from './opencode.live.ts';

/** The CLI the recorder (test/adapters/opencode-http/record-opencode-http.ts) runs. */
export const OPENCODE_HTTP_BIN = join(cliDir(pinnedPackage(opencodeHttpAdapter())), 'node_modules/.bin/opencode');

/**
 * `opencode serve` pointed at the fake model server exactly like `opencode run` (opencode.live.ts): a
 * custom `fake` provider in the global config under the temp HOME. This adapter is a session, not a
 * process, so the generic recorder (which records stdout) does not apply: the SSE stream the session
 * reads is recorded by test/adapters/opencode-http/record-opencode-http.ts instead. `denied` is an
 * `ask` answered "deny" by the recorder's approval channel (the adapter relays `permission.asked`).
 */
export const spec: LiveSpec = {
  adapter: 'opencode-http',
  create: () => opencodeHttpAdapter({ command: OPENCODE_HTTP_BIN }),
  ...pinnedPackage(opencodeHttpAdapter()),
  binName: 'opencode',
  provider: 'openai-chat',
  timeoutMs: 120_000,
  cases: {
    plain: { prompt: 'Say hello in one sentence.' },
    tool: { prompt: TOOL_PROMPT, policy: { default: 'allow' } },
    denied: { prompt: TOOL_PROMPT, policy: { default: 'allow', rules: [{ tool: 'bash', decision: 'ask' }] } },
    resume: { skip: 'the adapter starts a fresh session per run (resume not implemented)' },
    'auth-401': { prompt: 'Say hello.' },
    'rate-429': { skip: 'not recorded: OpenCode retries 429 with backoff for a long time' },
  },
  setup: openCodeStyleSetup('opencode', 'opencode.json', 'OPENCODE'),
};

import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { HERMES_TESTED_VERSION } from '../../../src/adapters/agents/hermes/hermes-adapter.ts';
import { hermesAdapter } from '../../../src/adapters/agents/hermes/index.ts';
import { acpWriteCases } from '../acp-write-cases.ts';
import { cliCacheRoot } from '../cli-cache.ts';
import type { LiveSpec } from '../live-spec.ts';

/** A command Hermes asks about before it runs it (its pattern "shell command via -c/-lc flag"). */
export const HERMES_ASKED_COMMAND = "sh -c 'echo agent-mux-live > agent-mux-live.txt'";

/** The model the fake server is asked for: a name no price list knows. */
export const HERMES_LIVE_MODEL = 'fake-model';

function hermesBin(): string {
  return (
    process.env.AGENT_MUX_HERMES_BIN ?? join(cliCacheRoot, `hermes-agent-${HERMES_TESTED_VERSION}`, 'bin', 'hermes')
  );
}

/** Why hermes cannot run here: no virtualenv with it (PyPI has it; the machines reach only npm and Debian). */
function hermesMissing(): string | undefined {
  const bin = hermesBin();
  if (existsSync(bin)) return undefined;
  return `no hermes at ${bin}: hermes-agent is a PyPI package this machine cannot install; install hermes-agent[acp]==${HERMES_TESTED_VERSION} into a virtualenv there, or set AGENT_MUX_HERMES_BIN`;
}

/**
 * hermes-agent 0.18.2 over ACP (`hermes acp`). It is a Python package, not on npm: the spec runs the
 * `hermes` of a virtualenv that holds `hermes-agent[acp]==0.18.2` — `AGENT_MUX_HERMES_BIN`, else
 * `<cli cache>/hermes-agent-0.18.2/bin/hermes` — and refuses to record without one.
 * Hermes is pointed at the fake server by `$HERMES_HOME/config.yaml` (`model.provider: custom`,
 * `base_url`, `api_key`), under the temp HOME. Recordings: test/fixtures/streams/hermes/.
 */
export const spec: LiveSpec = {
  adapter: 'hermes',
  create: () => hermesAdapter(),
  // The PyPI package (hermes-agent is not on npm): `locate` finds it instead of an npm install.
  npmPackage: 'hermes-agent',
  version: HERMES_TESTED_VERSION,
  binName: 'hermes',
  locate() {
    const missing = hermesMissing();
    if (missing) throw new Error(missing);
    return hermesBin();
  },
  unavailable: hermesMissing,
  provider: 'openai-chat',
  timeoutMs: 180_000,
  variesBetweenRuns: 'hermes generates its session ids (YYYYMMDD_HHMMSS_xxxxxx) and tool call ids',
  cases: acpWriteCases(
    {
      plain: { prompt: 'Say hello in one sentence.' },
      resume: { prompt: 'Remember the number 42.' },
      'auth-401': { prompt: 'Say hello.' },
      'rate-429': { prompt: 'Say hello.' },
    },
    // Hermes asks only for the commands its approval patterns call dangerous (tools/approval.py):
    // a plain `echo … > file` runs unasked; `sh -c …` ("shell command via -c/-lc flag") is asked.
    { shell: { command: HERMES_ASKED_COMMAND }, deniedTool: 'terminal' },
  ),
  async setup({ baseUrl, home, case: caseName }) {
    const hermesHome = join(home, '.hermes');
    mkdirSync(hermesHome, { recursive: true });
    const config = [
      'model:',
      '  provider: custom',
      `  base_url: ${baseUrl}/v1`,
      `  default: ${HERMES_LIVE_MODEL}`,
      '  api_key: sk-fake-hermes-live-key',
      // A 429 is retried 3 times by default, with backoff.
      ...(caseName === 'rate-429' ? ['agent:', '  api_max_retries: 1'] : []),
      '',
    ].join('\n');
    writeFileSync(join(hermesHome, 'config.yaml'), config);
    return { env: { HERMES_HOME: hermesHome } };
  },
  resumeRequest: (sessionId) => ({ prompt: 'What number did I ask you to remember?', resumeSessionId: sessionId }),
};

import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { ompAdapter } from '../../../src/adapters/agents/omp/index.ts';
import { cliCacheRoot } from '../cli-cache.ts';
import { type LiveSpec, pinnedPackage } from '../live-spec.ts';

const TOOL_PROMPT = 'Run the shell command `echo agent-mux-live` and tell me what it printed.';
const BUN_VERSION = '1.3.14';

/** omp's `bin` is `#!/usr/bin/env bun`: a bun from PATH, else one installed (from npm) into the CLI cache. */
function bunDir(): string {
  try {
    execFileSync('bun', ['--version'], { stdio: 'ignore' });
    return '';
  } catch {}
  const root = join(cliCacheRoot, `bun-${BUN_VERSION}`);
  const oven = join(root, 'node_modules', '@oven');
  if (!existsSync(oven)) {
    // Without install scripts npm still unpacks the platform packages (@oven/bun-<os>-<arch>[-baseline|-musl]).
    execFileSync('npm', ['install', '--prefix', root, '--no-audit', '--no-fund', `bun@${BUN_VERSION}`], {
      stdio: 'ignore',
    });
  }
  for (const pkg of readdirSync(oven).sort((a, b) => a.length - b.length)) {
    const dir = join(oven, pkg, 'bin');
    try {
      execFileSync(join(dir, 'bun'), ['--version'], { stdio: 'ignore' });
      return dir;
    } catch {}
  }
  throw new Error(`no runnable bun in ${oven}`);
}

/**
 * omp reaches the fake server through a custom provider in `~/.omp/agent/models.yml`
 * (api `anthropic-messages`), made the default model by `modelRoles` in `~/.omp/agent/config.yml`.
 */
export const spec: LiveSpec = {
  adapter: 'omp',
  create: () => ompAdapter(),
  ...pinnedPackage(ompAdapter()),
  binName: 'omp',
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
  async setup({ baseUrl, home, case: caseName }) {
    const agentDir = join(home, '.omp', 'agent');
    mkdirSync(agentDir, { recursive: true });
    writeFileSync(
      join(agentDir, 'models.yml'),
      [
        'providers:',
        '  fake:',
        `    baseUrl: ${baseUrl}`,
        '    api: anthropic-messages',
        '    apiKey: FAKE_MODEL_API_KEY',
        '    models:',
        '      - id: claude-fake',
        '        name: Claude Fake',
        '        reasoning: true',
        '        contextWindow: 200000',
        '        maxTokens: 8192',
        '',
      ].join('\n'),
    );
    const roles = ['default', 'smol', 'slow', 'tiny', 'plan', 'commit', 'task', 'advisor'];
    writeFileSync(
      join(agentDir, 'config.yml'),
      [
        'modelRoles:',
        ...roles.map((role) => `  ${role}: fake/claude-fake`),
        // omp retries a 429 up to ten times with waits that grow past the case's time limit (recorded: 28
        // requests in 120 s with maxRetries 2): the case records one attempt.
        ...(caseName === 'rate-429' ? ['retry:', '  enabled: false', '  modelFallback: false'] : []),
        '',
      ].join('\n'),
    );
    const bun = bunDir();
    const env: Record<string, string> = { FAKE_MODEL_API_KEY: 'sk-fake-live-key', PI_OFFLINE: '1' };
    if (bun) env.PATH = `${bun}${delimiter}${process.env.PATH ?? ''}`;
    return { env };
  },
  resumeRequest: (sessionId) => ({ prompt: 'What number did I ask you to remember?', resumeSessionId: sessionId }),
};

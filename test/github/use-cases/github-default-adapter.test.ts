import { describe, expect, it } from 'vitest';
import { createBuiltinRegistry } from '../../../src/adapters/builtin-registry.ts';
import { parseRepoConfig } from '../../../src/github/config/parse-repo-config.ts';
import { githubDefaultAdapterId, resolveAgentAdapter } from '../../../src/github/use-cases/resolve-agent-adapter.ts';

const FILE = '.github/agent-mux.yml';
function resolve(configText: string, agentName: string) {
  const parsed = parseRepoConfig(configText, FILE);
  if (!parsed.ok) throw new Error(parsed.error.message);
  return resolveAgentAdapter({ registry: createBuiltinRegistry(), agentName, config: parsed.config, file: FILE });
}

describe('the adapter an agent name runs on GitHub', () => {
  it('codex, unlisted, runs over ACP (codex-acp): there Codex can ask for approval', () => {
    expect(githubDefaultAdapterId(createBuiltinRegistry(), 'codex')).toBe('codex-acp');
    expect(resolve('trigger:\n  phrase: "@agent"\n', 'codex').adapter.id).toBe('codex-acp');
  });

  it('qwen, opencode and kilo, unlisted, run over ACP too; gemini, claude, pi and omp keep their modes', () => {
    const config = 'trigger:\n  phrase: "@agent"\n';
    expect(['qwen', 'opencode', 'kilo'].map((name) => resolve(config, name).adapter.id)).toEqual([
      'qwen-acp',
      'opencode-acp',
      'kilo-acp',
    ]);
    expect(['gemini', 'claude', 'pi', 'omp'].map((name) => resolve(config, name).adapter.id)).toEqual([
      'gemini',
      'claude',
      'pi',
      'omp',
    ]);
    // Each default asks over ACP, and keeps the token counts of its headless mode.
    for (const name of ['codex', 'qwen', 'opencode', 'kilo']) {
      expect(resolve(config, name).adapter.capabilities.approvals, name).toBe('native');
    }
  });

  it('a config that lists codex with adapter codex keeps the headless mode', () => {
    expect(resolve('agents:\n  codex:\n    adapter: codex\n', 'codex').adapter.id).toBe('codex');
  });

  it('agents without an ACP default run as they are named', () => {
    expect(resolve('trigger:\n  phrase: "@agent"\n', 'claude').adapter.id).toBe('claude');
    expect(resolve('trigger:\n  phrase: "@agent"\n', 'codex-acp').adapter.id).toBe('codex-acp');
  });

  it('an acp agent can be configured with options', () => {
    const config = 'agents:\n  gem:\n    adapter: acp\n    options:\n      binary: gemini\n      args: [--acp]\n';
    const { adapter } = resolve(config, 'gem');
    expect(adapter.id).toBe('gem');
    expect(adapter.capabilities.approvals).toBe('native');
  });
});

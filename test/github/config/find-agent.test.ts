import { describe, expect, it } from 'vitest';
import { defaultRepoConfig, findAgent, parseRepoConfig, type RepoConfig } from '../../../src/github/config/index.ts';

function configOf(text: string): RepoConfig {
  const result = parseRepoConfig(text, 'x.yml');
  if (!result.ok) throw new Error(result.error.message);
  return result.config;
}

describe('findAgent', () => {
  const config = configOf('agents:\n  codex: { adapter: codex, model: gpt-5 }\n  claude: { adapter: claude }\n');

  it.each([
    { name: undefined, expected: { name: 'codex', agent: { adapter: 'codex', model: 'gpt-5' } } },
    { name: 'claude', expected: { name: 'claude', agent: { adapter: 'claude' } } },
    { name: 'demo', expected: { name: 'demo', agent: { adapter: 'demo' } } },
    { name: 'gemini', expected: undefined },
  ])('finds $name', ({ name, expected }) => {
    expect(findAgent(config, name)).toEqual(expected);
  });

  it('runs the builtin demo agent when none is configured', () => {
    expect(findAgent(defaultRepoConfig())).toEqual({ name: 'demo', agent: { adapter: 'demo' } });
  });

  it('prefers a configured agent named demo', () => {
    const own = configOf('agents:\n  demo: { adapter: claude }\n');
    expect(findAgent(own, 'demo')).toEqual({ name: 'demo', agent: { adapter: 'claude' } });
  });

  it('does not find inherited object properties', () => {
    expect(findAgent(config, 'constructor')).toBeUndefined();
    expect(findAgent(config, 'toString')).toBeUndefined();
  });
});

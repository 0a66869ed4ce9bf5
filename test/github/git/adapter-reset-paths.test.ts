import { describe, expect, it } from 'vitest';
import { createBuiltinRegistry } from '../../../src/adapters/builtin-registry.ts';
import { agentConfigPaths } from '../../../src/github/git/agent-config-paths.ts';
import { builtinRepositoryReads, resetPathMatcher, resetPathsFor } from '../../../src/github/git/index.ts';

const registry = createBuiltinRegistry();

describe('what is reset before an agent runs on a pull request', () => {
  it('every built-in adapter says in its own folder what its agent reads from the repository', () => {
    const undeclared = registry
      .list()
      .filter((adapter) => adapter.readsFromRepository === undefined)
      .map((adapter) => adapter.id);
    expect(undeclared).toEqual([]);
  });

  it('an ACP mode reads what its CLI reads', () => {
    for (const [acp, cli] of [
      ['gemini-acp', 'gemini'],
      ['qwen-acp', 'qwen'],
      ['copilot-acp', 'copilot'],
      ['codex-acp', 'codex'],
      ['omp-acp', 'omp'],
    ] as const) {
      expect(registry.get(acp).readsFromRepository, acp).toEqual(registry.get(cli).readsFromRepository);
    }
    expect(registry.get('gemini-acp').readsFromRepository).toEqual(['.env']);
  });

  it('an agent gets the common set and its own entries; an adapter that declares nothing gets every agent’s', () => {
    expect(resetPathsFor(registry.get('claude'))).toEqual(agentConfigPaths);
    expect(resetPathsFor(registry.get('gemini'))).toEqual([...agentConfigPaths, '.env']);
    const unknown = resetPathsFor({});
    expect(unknown).toEqual([...agentConfigPaths, ...builtinRepositoryReads()]);
    expect(resetPathsFor(undefined)).toEqual(unknown);
    for (const entry of ['.env', '/SOUL.md', '/skills/', '.github/hooks/']) expect(unknown).toContain(entry);
    // Each entry once, though Gemini CLI and Qwen Code both read .env.
    expect(new Set(builtinRepositoryReads()).size).toBe(builtinRepositoryReads().length);
  });

  it('the entry syntax: folders, anchored names, any depth, any case', () => {
    const matches = resetPathMatcher(['.env', '/SOUL.md', '/memory/']);
    expect(matches('.env')).toBe(true);
    expect(matches('packages/api/.ENV')).toBe(true);
    expect(matches('SOUL.md')).toBe(true);
    expect(matches('docs/SOUL.md')).toBe(false);
    expect(matches('memory/2026-12-04.md')).toBe(true);
    expect(matches('memory')).toBe(true);
    expect(matches('src/memory/x.md')).toBe(false);
  });
});

import { describe, expect, it } from 'vitest';
import { createBuiltinRegistry } from '../../src/adapters/builtin-registry.ts';
import { AppSettingsError } from '../../src/app/app-settings-error.ts';
import { checkAdapterLimits } from '../../src/app/check-adapter-limits.ts';
import { limitKey } from '../../src/app/limit-key.ts';
import { parseRepoConfig } from '../../src/github/config/parse-repo-config.ts';

const ids = createBuiltinRegistry().ids();
const problemsOf = (limits: Record<string, number>): string[] => {
  try {
    checkAdapterLimits(limits, ids);
    return [];
  } catch (error) {
    if (!AppSettingsError.isInstance(error)) throw error;
    return [...error.problems];
  }
};

describe('checkAdapterLimits (AGENT_MUX_ADAPTER_LIMITS keys)', () => {
  it('takes built-in adapter ids and agent:<name>', () => {
    expect(problemsOf({ codex: 3, claude: 2, 'codex-acp': 1, 'agent:gpu-box': 1 })).toEqual([]);
  });

  it('refuses a key that limits nothing, naming the variable, with a did-you-mean', () => {
    const problems = problemsOf({ 'claude-code': 2, codexx: 1, http: 2, 'agent:': 1 });
    expect(problems).toHaveLength(4);
    expect(problems[0]).toMatch(
      /^AGENT_MUX_ADAPTER_LIMITS: "claude-code" is no built-in adapter \(did you mean claude\?\); keys are built-in adapter ids \(.*\) or agent:<name>/,
    );
    expect(problems[1]).toContain('"codexx" is no built-in adapter (did you mean codex?)');
    expect(problems[2]).toContain(
      '"http" is no built-in adapter (did you mean agent:<name> for an agent with adapter: http?)',
    );
    expect(problems[3]).toContain('"agent:" is no built-in adapter');
  });
});

describe('limitKey', () => {
  const parsed = parseRepoConfig(
    'agents:\n  gpu-box:\n    adapter: http\n    url: https://gpu.example.com\n  fast:\n    adapter: codex\n',
    '.github/agent-mux.yml',
  );
  if (!parsed.ok) throw parsed.error;
  it('counts a built-in by its adapter id and an agent of a configured type by agent:<name>', () => {
    expect(limitKey(parsed.config, 'fast')).toBe('codex');
    expect(limitKey(parsed.config, 'gpu-box')).toBe('agent:gpu-box');
    expect(limitKey(parsed.config, 'claude')).toBe('claude');
  });
});

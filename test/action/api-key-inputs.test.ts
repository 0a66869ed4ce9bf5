import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { apiKeyInputs, KeyInputConflictError, keyInputsOf } from '../../src/action/api-key-inputs.ts';
import { createBuiltinRegistry } from '../../src/adapters/builtin-registry.ts';
import type { Adapter } from '../../src/core/adapter/index.ts';

const action = parse(readFileSync(new URL('../../action.yml', import.meta.url), 'utf8')) as {
  inputs: Record<string, { description: string }>;
};

describe('the Action inputs for API keys', () => {
  it('are what the adapters declare in their folders, each variable one its adapter treats as a secret', () => {
    const registry = createBuiltinRegistry();
    for (const adapter of registry.list()) {
      for (const [input, variable] of Object.entries(adapter.keyInputs ?? {})) {
        expect(adapter.secretEnv, `${adapter.id}: ${input}`).toContain(variable);
        expect(apiKeyInputs()[input]).toBe(variable);
      }
    }
    expect(apiKeyInputs()).toMatchObject({
      'anthropic-api-key': 'ANTHROPIC_API_KEY',
      'claude-code-oauth-token': 'CLAUDE_CODE_OAUTH_TOKEN',
      'openai-api-key': 'OPENAI_API_KEY',
      'gemini-api-key': 'GEMINI_API_KEY',
      'openrouter-api-key': 'OPENROUTER_API_KEY',
      'cursor-api-key': 'CURSOR_API_KEY',
      'copilot-token': 'COPILOT_GITHUB_TOKEN',
      'remote-agent-token': 'AGENT_MUX_REMOTE_TOKEN',
    });
  });

  it('action.yml declares each, naming its variable', () => {
    for (const [input, variable] of Object.entries(apiKeyInputs())) {
      expect(action.inputs[input]?.description, input).toContain(variable);
    }
  });

  it('an ACP mode takes its CLI’s', () => {
    const registry = createBuiltinRegistry();
    expect(registry.get('gemini-acp').keyInputs).toEqual(registry.get('gemini').keyInputs);
    expect(registry.get('codex-acp').keyInputs).toEqual(registry.get('codex').keyInputs);
  });

  it('two adapters that give one input to different variables are refused, naming both', () => {
    const a = { id: 'a', keyInputs: { 'x-api-key': 'X_KEY' } } as unknown as Adapter;
    const b = { id: 'b', keyInputs: { 'x-api-key': 'OTHER_KEY' } } as unknown as Adapter;
    expect(keyInputsOf([a, a])).toMatchObject({ 'x-api-key': 'X_KEY' });
    const error = (() => {
      try {
        keyInputsOf([a, b]);
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(KeyInputConflictError);
    expect(String((error as Error).message)).toBe('the input x-api-key is X_KEY for a but OTHER_KEY for b');
  });
});

import { describe, expect, it } from 'vitest';
import { createBuiltinRegistry } from '../../../../src/adapters/builtin-registry.ts';
import { parseConfig } from '../../../../src/core/config/index.ts';
import { ConfigError } from '../../../../src/core/errors/index.ts';

describe('the acp adapter type in a configuration', () => {
  it('parses beside process and builds an ACP adapter from the registry', () => {
    const config = parseConfig(
      'adapters:\n  gem:\n    type: acp\n    binary: gemini\n    args: [--experimental-acp]\n    secretEnv: [GEMINI_API_KEY]\n',
      'c.yaml',
    );
    expect(config.adapters.gem).toEqual({
      type: 'acp',
      binary: 'gemini',
      args: ['--experimental-acp'],
      env: {},
      secretEnv: ['GEMINI_API_KEY'],
    });
    const registry = createBuiltinRegistry();
    registry.loadConfig(config, 'c.yaml');
    const adapter = registry.get('gem');
    expect(adapter.capabilities).toMatchObject({ approvals: 'native', resume: true, streaming: 'full' });
    expect(adapter.secretEnv).toEqual(['GEMINI_API_KEY']);
    expect(adapter.launch.kind).toBe('process');
  });

  it('names the field, file and line of a mistake', () => {
    let error: unknown;
    try {
      parseConfig('adapters:\n  gem:\n    type: acp\n    binary: gemini\n    protocol: json-lines\n', 'c.yaml');
    } catch (caught) {
      error = caught;
    }
    expect(ConfigError.isInstance(error)).toBe(true);
    expect((error as ConfigError).issues).toEqual([
      {
        path: 'adapters.gem.protocol',
        message: 'unknown key "protocol"; expected one of "type", "binary", "args", "env", "costModel", "secretEnv"',
        line: 5,
      },
    ]);
  });
});

import { describe, expect, it } from 'vitest';
import { ADAPTER_SPECIFICATION_VERSION, type Adapter, type Capabilities } from '../../../src/core/adapter/index.ts';
import { parseConfig } from '../../../src/core/config/index.ts';
import { AdapterNotFoundError, ConfigError } from '../../../src/core/errors/index.ts';
import { AdapterRegistry } from '../../../src/core/registry/adapter-registry.ts';

const capabilities: Capabilities = {
  resume: false,
  fork: false,
  thinking: 'no',
  mcp: false,
  approvals: 'none',
  pty: 'never',
  platforms: ['linux', 'darwin'],
  sessionPersistence: 'none',
  execModel: 'run-to-completion',
  nativeSessionIds: false,
  turnCompletion: true,
  streaming: 'none',
};

function fakeAdapter(id: string, displayName = id): Adapter {
  return {
    specificationVersion: ADAPTER_SPECIFICATION_VERSION,
    id,
    displayName,
    capabilities,
    launch: {
      kind: 'session',
      open: async () => ({ done: Promise.resolve({ status: 'completed' }), stop: async () => {} }),
    },
  };
}

const config = parseConfig(
  `{
  "adapters": {
    "pi": {
      "type": "http",
      "baseUrl": "http://gpu-box.internal:7001",
      "auth": { "type": "none" }
    },
    "claude": {
      "type": "process",
      "binary": "my-claude-wrapper"
    }
  }
}`,
  'config.json',
);

describe('AdapterRegistry', () => {
  it('gets built-in adapters and lists them sorted', () => {
    const registry = new AdapterRegistry().register(fakeAdapter('codex')).register(fakeAdapter('claude'));
    expect(registry.get('codex').id).toBe('codex');
    expect(registry.list().map((a) => a.id)).toEqual(['claude', 'codex']);
    expect(registry.has('claude')).toBe(true);
    expect(registry.origin('claude')).toBe('built-in');
    expect(registry.origin('nope')).toBeUndefined();
  });

  it('throws AdapterNotFoundError listing the known ids', () => {
    const registry = new AdapterRegistry().register(fakeAdapter('codex')).register(fakeAdapter('claude'));
    const error = (() => {
      try {
        registry.get('gemini');
      } catch (e) {
        return e;
      }
    })();
    expect(AdapterNotFoundError.isInstance(error)).toBe(true);
    expect((error as AdapterNotFoundError).adapterId).toBe('gemini');
    expect((error as Error).message).toBe('unknown adapter "gemini"; known adapters: claude, codex');
  });

  it('builds configured adapters through the factory of their type, passing id, entry and context', () => {
    const calls: unknown[] = [];
    const registry = new AdapterRegistry()
      .register(fakeAdapter('claude', 'Claude Code'))
      .registerConfigType('http', (id, entry, ctx) => {
        calls.push({ id, baseUrl: entry.baseUrl, sessions: entry.maxConcurrentSessions, file: ctx.file });
        return fakeAdapter(id, `HTTP ${entry.baseUrl}`);
      })
      .registerConfigType('process', (id, entry) => fakeAdapter(id, `process ${entry.binary}`))
      .loadConfig(config, 'config.json');
    expect(calls).toEqual([{ id: 'pi', baseUrl: 'http://gpu-box.internal:7001', sessions: 4, file: 'config.json' }]);
    expect(registry.get('pi').displayName).toBe('HTTP http://gpu-box.internal:7001');
    // A configured adapter with a built-in's id replaces it.
    expect(registry.get('claude').displayName).toBe('process my-claude-wrapper');
    expect(registry.origin('claude')).toBe('config');
    expect(registry.list().map((a) => a.displayName)).toEqual([
      'process my-claude-wrapper',
      'HTTP http://gpu-box.internal:7001',
    ]);
  });

  it('names adapters.<id>.type, the file and the line when no factory handles a type', () => {
    const registry = new AdapterRegistry().registerConfigType('process', (id) => fakeAdapter(id));
    const error = (() => {
      try {
        registry.loadConfig(config, 'config.json');
      } catch (e) {
        return e as ConfigError;
      }
    })();
    expect(ConfigError.isInstance(error)).toBe(true);
    expect(error?.file).toBe('config.json');
    expect(error?.issues).toEqual([
      {
        path: 'adapters.pi.type',
        message: 'no adapter factory is registered for type "http"; available: process',
        line: 4,
      },
    ]);
    expect(error?.message).toBe(
      'adapters.pi.type: no adapter factory is registered for type "http"; available: process (config.json:4)',
    );
  });

  it('is all or nothing, and reports a factory failure at the adapter with its cause', () => {
    const boom = new Error('tokenEnv PI_TOKEN is not set');
    const registry = new AdapterRegistry()
      .registerConfigType('process', (id) => fakeAdapter(id))
      .registerConfigType('http', () => {
        throw boom;
      });
    const error = (() => {
      try {
        registry.loadConfig(config, 'config.json');
      } catch (e) {
        return e as ConfigError;
      }
    })();
    expect(error?.issues).toEqual([{ path: 'adapters.pi', message: 'tokenEnv PI_TOKEN is not set', line: 3 }]);
    expect(error?.cause).toBe(boom);
    expect(registry.has('claude')).toBe(false);
  });

  it('passes a factory ConfigError through and replaces earlier configured adapters on reload', () => {
    const registry = new AdapterRegistry()
      .registerConfigType('process', (id) => fakeAdapter(id))
      .registerConfigType('http', (id) => fakeAdapter(id));
    registry.loadConfig(config, 'config.json');
    expect(registry.ids()).toEqual(['claude', 'pi']);
    registry.loadConfig(parseConfig('adapters:\n  solo: { type: process, binary: x }\n', 'b.yaml'), 'b.yaml');
    expect(registry.ids()).toEqual(['solo']);

    registry.registerConfigType('process', () => {
      throw new ConfigError('b.yaml', [{ path: 'adapters.solo.binary', message: 'not on PATH', line: 2 }]);
    });
    expect(() =>
      registry.loadConfig(parseConfig('adapters:\n  solo: { type: process, binary: x }\n', 'b.yaml'), 'b.yaml'),
    ).toThrow('adapters.solo.binary: not on PATH (b.yaml:2)');
    expect(registry.ids()).toEqual(['solo']);
  });

  it('works with a configuration built in code (no lines known)', () => {
    const registry = new AdapterRegistry();
    expect(() =>
      registry.loadConfig(
        { adapters: { x: { type: 'external', command: 'c', args: [], work_dir: '', env: {} } } },
        'inline',
      ),
    ).toThrow('adapters.x.type: no adapter factory is registered for type "external" (inline)');
  });
});

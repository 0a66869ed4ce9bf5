import { describe, expect, it } from 'vitest';
import { genericCliCapabilities } from '../../../src/adapters/protocols/generic-cli/generic-cli-adapter.ts';
import { processAdapter, processCapabilities } from '../../../src/adapters/protocols/process/process-adapter.ts';
import { configuredAdapterBase } from '../../../src/adapters/shared/configured-adapter-base.ts';
import { configuredCapabilities } from '../../../src/adapters/shared/configured-capabilities.ts';
import { ADAPTER_SPECIFICATION_VERSION, capabilitiesSchema } from '../../../src/core/adapter/index.ts';

describe('configuredCapabilities', () => {
  it('fills in the defaults of a configured program around what its type states', () => {
    const capabilities = configuredCapabilities({ sessionPersistence: 'none', execModel: 'run-to-completion' });
    expect(capabilitiesSchema.parse(capabilities)).toEqual({
      resume: false,
      fork: false,
      thinking: 'no',
      mcp: false,
      approvals: 'none',
      pty: 'never',
      platforms: ['darwin', 'linux'],
      sessionPersistence: 'none',
      execModel: 'run-to-completion',
      nativeSessionIds: false,
      turnCompletion: true,
      streaming: 'text',
    });
  });

  it('keeps what each type differs in', () => {
    expect(processCapabilities).toMatchObject({ mcp: true, approvals: 'relay', execModel: 'interactive' });
    expect(genericCliCapabilities('persistent')).toMatchObject({ sessionPersistence: 'memory', turnCompletion: false });
    expect(
      configuredCapabilities({ sessionPersistence: 'none', execModel: 'interactive', platforms: ['win32'] }),
    ).toMatchObject({ platforms: ['win32'] });
  });
});

describe('configuredAdapterBase', () => {
  it('passes the entry’s costModel and secretEnv on with the identity', () => {
    const capabilities = configuredCapabilities({ sessionPersistence: 'none', execModel: 'interactive' });
    expect(
      configuredAdapterBase({
        id: 'mine',
        displayName: 'mine (process: ./a.sh)',
        capabilities,
        config: { costModel: 'openai/gpt-5', secretEnv: ['MY_KEY'] },
      }),
    ).toEqual({
      specificationVersion: ADAPTER_SPECIFICATION_VERSION,
      id: 'mine',
      displayName: 'mine (process: ./a.sh)',
      capabilities,
      costModel: 'openai/gpt-5',
      secretEnv: ['MY_KEY'],
    });
  });

  it('is what the process adapter is made of', () => {
    const adapter = processAdapter('p', { binary: './agent.sh', secretEnv: ['K'] });
    expect(adapter).toMatchObject({ id: 'p', displayName: 'p (process: ./agent.sh)', secretEnv: ['K'] });
    expect(adapter.launch.kind).toBe('process');
  });
});

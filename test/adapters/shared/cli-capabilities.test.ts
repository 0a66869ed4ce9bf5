import { describe, expect, it } from 'vitest';
import { hermesAdapter } from '../../../src/adapters/agents/hermes/hermes-adapter.ts';
import { CLI_CAPABILITY_DEFAULTS, cliCapabilities } from '../../../src/adapters/shared/cli-capabilities.ts';
import { capabilitiesSchema } from '../../../src/core/adapter/index.ts';

const own = {
  resume: true,
  fork: false,
  thinking: 'no',
  mcp: true,
  approvals: 'none',
  sessionPersistence: 'file',
  streaming: 'text',
} as const;

describe('cliCapabilities', () => {
  it('fills in the CLI defaults around what the adapter states', () => {
    const capabilities = cliCapabilities(own);
    expect(capabilitiesSchema.parse(capabilities)).toEqual(capabilities);
    expect(capabilities).toEqual({
      ...own,
      pty: 'never',
      platforms: ['darwin', 'linux', 'win32'],
      execModel: 'run-to-completion',
      nativeSessionIds: true,
      turnCompletion: true,
    });
  });

  it('lets the adapter differ from a default, and gives each adapter its own platforms array', () => {
    expect(cliCapabilities({ ...own, platforms: ['linux'], pty: 'optional' })).toMatchObject({
      platforms: ['linux'],
      pty: 'optional',
    });
    expect(hermesAdapter().capabilities.platforms).toEqual(['darwin', 'linux']);
    expect(cliCapabilities(own).platforms).not.toBe(CLI_CAPABILITY_DEFAULTS.platforms);
  });
});

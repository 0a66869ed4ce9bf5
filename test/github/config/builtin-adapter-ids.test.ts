import { describe, expect, it } from 'vitest';
import { createBuiltinRegistry } from '../../../src/adapters/builtin-registry.ts';
import { builtinAdapterIds } from '../../../src/github/config/repo-config-schema.ts';

describe('builtinAdapterIds', () => {
  it('names exactly the adapters the built-in registry registers (the schema cannot drift from it)', () => {
    expect([...builtinAdapterIds].sort()).toEqual(createBuiltinRegistry().ids().sort());
  });
});

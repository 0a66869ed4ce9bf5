import { describe, expect, it } from 'vitest';
import { definedEnv } from '../../../src/core/run/defined-env.ts';

describe('definedEnv', () => {
  it('keeps the variables that have a value, empty strings included', () => {
    expect(definedEnv({ A: 'a', B: undefined, C: '' })).toEqual({ A: 'a', C: '' });
  });
});

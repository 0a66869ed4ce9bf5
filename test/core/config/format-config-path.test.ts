import { describe, expect, it } from 'vitest';
import { formatConfigPath } from '../../../src/core/config/format-config-path.ts';

describe('formatConfigPath', () => {
  it('joins keys with dots, indexes in brackets, odd keys quoted', () => {
    expect(formatConfigPath(['adapters', 'pi', 'baseUrl'])).toBe('adapters.pi.baseUrl');
    expect(formatConfigPath(['adapters', 'gemini-cli', 'args', 1])).toBe('adapters.gemini-cli.args[1]');
    expect(formatConfigPath(['pricing', 'custom/pi-2.5', 'input'])).toBe('pricing["custom/pi-2.5"].input');
    expect(formatConfigPath([])).toBe('');
  });
});

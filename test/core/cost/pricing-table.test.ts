import { describe, expect, it } from 'vitest';
import { builtInPrices, PricingTable } from '../../../src/core/cost/pricing-table.ts';

describe('PricingTable', () => {
  const table = new PricingTable();

  it('has the models the seeds and built-in adapters name', () => {
    for (const key of [
      'anthropic/claude-sonnet-4-6',
      'anthropic/claude-opus-4-1',
      'anthropic/claude-haiku-4-5',
      'openai/gpt-5',
      'openai/gpt-5-mini',
      'openai/gpt-4o-mini',
      'google/gemini-2.5-pro',
      'google/gemini-2.5-flash',
      'google/gemini-2.0-flash',
      'deepseek/deepseek-chat',
    ]) {
      expect(builtInPrices[key], key).toBeDefined();
      expect(table.lookup(key)?.key).toBe(key);
    }
  });

  it('looks up a bare model name by its model part', () => {
    expect(table.lookup('claude-sonnet-4-6')).toEqual({
      key: 'anthropic/claude-sonnet-4-6',
      price: { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 },
    });
    expect(table.lookup('gemini-2.0-flash')?.key).toBe('google/gemini-2.0-flash');
  });

  it('ignores case, other provider prefixes and date or revision suffixes', () => {
    expect(table.lookup('Claude-Sonnet-4-6')?.key).toBe('anthropic/claude-sonnet-4-6');
    expect(table.lookup('models/gemini-2.5-pro')?.key).toBe('google/gemini-2.5-pro');
    expect(table.lookup('claude-sonnet-4-5-20250929')?.key).toBe('anthropic/claude-sonnet-4-5');
    expect(table.lookup('gpt-5-2025-08-07')?.key).toBe('openai/gpt-5');
    expect(table.lookup('gemini-2.0-flash-001')?.key).toBe('google/gemini-2.0-flash');
    expect(table.lookup('claude-sonnet-4@20250514')?.key).toBe('anthropic/claude-sonnet-4');
  });

  it('does not confuse models that share a prefix', () => {
    expect(table.lookup('gpt-5-mini')?.key).toBe('openai/gpt-5-mini');
    expect(table.lookup('gpt-5')?.key).toBe('openai/gpt-5');
    expect(table.lookup('gemini-2.0')).toBeUndefined();
  });

  it('returns undefined for unknown models', () => {
    expect(table.lookup('custom/pi-2.5')).toBeUndefined();
    expect(table.lookup('')).toBeUndefined();
    expect(table.lookup('llama-3')).toBeUndefined();
  });

  it('lets configured entries override and extend the built-in ones', () => {
    const configured = new PricingTable({
      'anthropic/claude-sonnet-4-6': { input: 1, output: 2 },
      'custom/pi-2.5': { input: 0.5, output: 1.5 },
      'mirror/gpt-5': { input: 0, output: 0 },
    });
    expect(configured.lookup('anthropic/claude-sonnet-4-6')?.price).toEqual({ input: 1, output: 2 });
    expect(configured.lookup('claude-sonnet-4-6')?.price).toEqual({ input: 1, output: 2 });
    expect(configured.lookup('custom/pi-2.5')?.price).toEqual({ input: 0.5, output: 1.5 });
    expect(configured.lookup('pi-2.5')?.key).toBe('custom/pi-2.5');
    // A configured provider wins the bare-name lookup; the full key still finds the built-in.
    expect(configured.lookup('gpt-5')?.key).toBe('mirror/gpt-5');
    expect(configured.lookup('openai/gpt-5')?.key).toBe('openai/gpt-5');
    expect(configured.keys().slice(0, 3)).toEqual(['anthropic/claude-sonnet-4-6', 'custom/pi-2.5', 'mirror/gpt-5']);
    // The built-in table is untouched.
    expect(table.lookup('claude-sonnet-4-6')?.price.input).toBe(3);
  });

  it('has sane prices: output at least input, cache reads cheaper than input', () => {
    for (const [key, price] of Object.entries(builtInPrices)) {
      expect(price.output, key).toBeGreaterThanOrEqual(price.input);
      if (price.cacheRead !== undefined) expect(price.cacheRead, key).toBeLessThan(price.input);
    }
  });
});

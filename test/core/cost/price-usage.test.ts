import { describe, expect, it } from 'vitest';
import { priceUsage } from '../../../src/core/cost/price-usage.ts';

describe('priceUsage', () => {
  const sonnet = { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 };

  it('prices each kind of token per million', () => {
    expect(priceUsage({ inputTokens: 1_000_000, outputTokens: 0 }, sonnet)).toBe(3);
    expect(priceUsage({ inputTokens: 0, outputTokens: 1_000_000 }, sonnet)).toBe(15);
    expect(
      priceUsage({ inputTokens: 15_200, outputTokens: 3100, cacheReadTokens: 100_000, cacheWriteTokens: 2000 }, sonnet),
    ).toBeCloseTo((15_200 * 3 + 3100 * 15 + 100_000 * 0.3 + 2000 * 3.75) / 1e6, 12);
  });

  it('charges cache tokens at the input price when the model lists no cache price', () => {
    expect(
      priceUsage(
        { inputTokens: 0, outputTokens: 0, cacheReadTokens: 1e6, cacheWriteTokens: 1e6 },
        { input: 2, output: 8 },
      ),
    ).toBe(4);
  });

  it('ignores negative and missing counts', () => {
    expect(priceUsage({ inputTokens: -5, outputTokens: Number.NaN }, sonnet)).toBe(0);
  });
});

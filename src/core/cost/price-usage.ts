import type { ModelPrice } from './pricing-table.ts';

/**
 * Token counts as cost events carry them. `inputTokens` are the uncached input tokens; cache
 * reads and writes are counted apart from them (translators of OpenAI-style usage, where cached
 * tokens are part of the input count, subtract them). Thinking tokens are part of `outputTokens`.
 */
export interface TokenUsage {
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens?: number;
  cacheWriteTokens?: number;
}

const count = (n: number | undefined): number => (n !== undefined && n > 0 ? n : 0);

/** USD for these tokens at this price (USD per million). Cache prices default to the input price. */
export function priceUsage(usage: TokenUsage, price: ModelPrice): number {
  return (
    (count(usage.inputTokens) * price.input +
      count(usage.outputTokens) * price.output +
      count(usage.cacheReadTokens) * (price.cacheRead ?? price.input) +
      count(usage.cacheWriteTokens) * (price.cacheWrite ?? price.input)) /
    1_000_000
  );
}

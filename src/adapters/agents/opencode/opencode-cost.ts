import type { DraftOf } from '../../../core/events/index.ts';
import { count, isObj, num, type Obj } from '../../shared/record-fields.ts';

/** `step_finish.part`: `tokens: {input, output, reasoning, cache: {read, write}}` and `cost` (USD) of that step. */
export function opencodeCostDraft(part: Obj | undefined): DraftOf<'cost'> | undefined {
  if (!part || !isObj(part.tokens)) return undefined;
  const tokens = part.tokens;
  const cache = isObj(tokens.cache) ? tokens.cache : {};
  const usd = num(part.cost);
  return {
    type: 'cost',
    inputTokens: count(tokens.input),
    outputTokens: count(tokens.output),
    cacheReadTokens: count(cache.read),
    cacheWriteTokens: count(cache.write),
    thinkingTokens: count(tokens.reasoning),
    // 0 is what OpenCode reports for a model without a price: leave pricing to the core then.
    usd: usd !== undefined && usd > 0 ? usd : undefined,
  };
}

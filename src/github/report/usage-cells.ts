import { escapeText, formatCount, formatUsd, truncate } from './markdown.ts';
import type { RunProgress } from './run-progress.ts';

/** What a report says for tokens or cost when the agent never reported any. */
export const NOT_REPORTED = 'not reported by the agent';

type Usage = Pick<
  RunProgress,
  'costReported' | 'inputTokens' | 'outputTokens' | 'cacheReadTokens' | 'usd' | 'unpricedModels'
>;

/** Tokens or cost were reported: a cost event came, or the totals hold some. */
function reported(usage: Usage): boolean {
  return usage.costReported || usage.inputTokens + usage.outputTokens + usage.cacheReadTokens + usage.usd > 0;
}

/** The Tokens cell of a report: in / out (cached), or that the agent reported none. */
export function tokensCell(usage: Usage): string {
  if (!reported(usage)) return NOT_REPORTED;
  const cached = usage.cacheReadTokens > 0 ? ` (${formatCount(usage.cacheReadTokens)} cached)` : '';
  return `${formatCount(usage.inputTokens)} in / ${formatCount(usage.outputTokens)} out${cached}`;
}

/**
 * The Cost cell of a report: USD, with the models whose tokens had no known price (counted as 0),
 * or that the agent reported no usage at all (markdown: the agent's model names are escaped).
 */
export function costCell(usage: Usage): string {
  if (!reported(usage)) return NOT_REPORTED;
  const usd = formatUsd(usage.usd);
  if (usage.unpricedModels.length === 0) return usd;
  // The cost tracker names a model the agent never named `(none)`.
  const named = usage.unpricedModels.map((model) => (model === '(none)' ? 'the model (the agent named none)' : model));
  const models = escapeText(truncate(named.join(', '), 200));
  return `${usd} (no price known for ${models}: its tokens count as $0)`;
}

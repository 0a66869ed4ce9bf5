import type { RunTotals } from '../../events/index.ts';
import type { Budget } from '../run-options.ts';
import type { RequestStop } from './stop-cause.ts';

/** What is left of a budget; a field is undefined when the budget sets no such limit. */
export interface BudgetRemaining {
  tokens?: number;
  usd?: number;
}

/**
 * Arms `RunOptions.budget`: returns the cost listener that tells the agent what is left (`onRemaining`)
 * and, once tokens or USD are spent, reports `budget_exceeded` and stops the run.
 */
export function armBudget(
  budget: Budget | undefined,
  onRemaining: (remaining: BudgetRemaining) => void,
  requestStop: RequestStop,
): ((totals: RunTotals) => void) | undefined {
  if (!budget) return undefined;
  return (totals) => {
    const remaining: BudgetRemaining = {
      tokens: budget.tokens === undefined ? undefined : budget.tokens - totals.inputTokens - totals.outputTokens,
      usd: budget.usd === undefined ? undefined : budget.usd - totals.usd,
    };
    onRemaining(remaining);
    if ((remaining.tokens ?? 1) > 0 && (remaining.usd ?? 1) > 0) return;
    const spent = remaining.usd !== undefined && remaining.usd <= 0 ? `USD ${totals.usd.toFixed(4)}` : 'tokens';
    requestStop({
      reason: 'budget_exceeded',
      shutdown: 'budget_exceeded',
      message: 'budget exceeded',
      error: { code: 'budget_exceeded', message: `the run's budget is spent (${spent})` },
    });
  };
}

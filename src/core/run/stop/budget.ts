import type { EventDraft, RunTotals } from '../../events/index.ts';
import type { PauseControl } from '../attempt-options.ts';
import type { Budget, BudgetSpent } from '../run-options.ts';
import type { RequestStop } from './stop-cause.ts';

/**
 * The run end's message when the run's own budget (`RunOptions.budget`) was spent; a host's limit
 * (`RunLimitError`, a disk cap) also ends a run `budget_exceeded`, with its own message.
 */
export const BUDGET_SPENT_MESSAGE = 'budget exceeded';

/** What is left of a budget; a field is undefined when the budget sets no such limit. */
export interface BudgetRemaining {
  tokens?: number;
  usd?: number;
}

/** The lower of a budget and a ceiling over it, field by field. */
export function lowerBudget(budget: Budget, ceiling: Budget | undefined): Budget {
  if (ceiling === undefined) return budget;
  const low = (a: number | undefined, b: number | undefined) =>
    a === undefined ? b : b === undefined ? a : Math.min(a, b);
  const usd = low(budget.usd, ceiling.usd);
  const tokens = low(budget.tokens, ceiling.tokens);
  return { ...(usd === undefined ? {} : { usd }), ...(tokens === undefined ? {} : { tokens }) };
}

/** How a spent budget may be raised instead of ending the run (`RunOptions.onBudgetSpent`). */
export interface BudgetRaise {
  ask: (spent: BudgetSpent) => Promise<Budget | undefined>;
  /** The running attempt's pause control, when it has one (a process agent). */
  control: () => PauseControl | undefined;
}

function remainingOf(budget: Budget, totals: RunTotals): BudgetRemaining {
  return {
    tokens: budget.tokens === undefined ? undefined : budget.tokens - totals.inputTokens - totals.outputTokens,
    usd: budget.usd === undefined ? undefined : budget.usd - totals.usd,
  };
}

const spentOut = (remaining: BudgetRemaining) => (remaining.tokens ?? 1) <= 0 || (remaining.usd ?? 1) <= 0;

/**
 * What a run with a dollar budget is told when its agent reports no cost, or a model without a known
 * price: those tokens count as $0, so the run is held by its token budget (when it has one).
 */
function unpricedNotice(budget: Budget, totals: RunTotals): string {
  const models = (totals.unpricedModels ?? []).join(', ');
  const held =
    budget.tokens === undefined
      ? 'it has no token budget, so its dollar budget counts only what is priced'
      : `it is counted by tokens against its token budget (${budget.tokens} tokens)`;
  return `no price is known for ${models}: its tokens count as $0 toward the $${(budget.usd ?? 0).toFixed(2)} budget; ${held}`;
}

function describe(budget: Budget): string {
  const parts = [
    ...(budget.usd === undefined ? [] : [`$${budget.usd.toFixed(2)}`]),
    ...(budget.tokens === undefined ? [] : [`${budget.tokens} tokens`]),
  ];
  return parts.join(' and ');
}

/**
 * Arms `RunOptions.budget`: returns the cost listener that tells the agent what is left (`onRemaining`)
 * and, once tokens or USD are spent, either pauses the agent and asks for a raise (`raise`: a process
 * agent, with `onBudgetSpent`) or reports `budget_exceeded` and stops the run. Costs reported while
 * paused (the last response's) count toward the raised budget. A pause that ends without a raise
 * (denied, timed out) stops the run without resuming the agent first: the attempt's stop continues
 * it. A `ceiling` (`RunOptions.budgetCeiling`) lowers the budget at each report until a raise, which
 * then holds alone.
 */
export function armBudget(
  budget: Budget | undefined,
  onRemaining: (remaining: BudgetRemaining) => void,
  requestStop: RequestStop,
  emit: (draft: EventDraft) => void,
  raise?: BudgetRaise,
  ceiling?: (totals: RunTotals) => Budget | undefined,
): ((totals: RunTotals) => void) | undefined {
  if (!budget) return undefined;
  let current = budget;
  let lowered: typeof ceiling = ceiling;
  let toldUnpriced = false;
  let asking = false;
  /** Stopped: what the agent reports while it shuts down asks nothing more. */
  let stopped = false;
  let latest: RunTotals | undefined;
  const stop = (totals: RunTotals) => {
    stopped = true;
    const remaining = remainingOf(current, totals);
    const spent = remaining.usd !== undefined && remaining.usd <= 0 ? `USD ${totals.usd.toFixed(4)}` : 'tokens';
    requestStop({
      reason: 'budget_exceeded',
      shutdown: 'budget_exceeded',
      message: BUDGET_SPENT_MESSAGE,
      error: { code: 'budget_exceeded', message: `the run's budget is spent (${spent})` },
    });
  };
  const check = (totals: RunTotals) => {
    latest = totals;
    if (asking || stopped) return;
    if (lowered) current = lowerBudget(current, lowered(totals));
    if (!toldUnpriced && current.usd !== undefined && (totals.unpricedModels?.length ?? 0) > 0) {
      toldUnpriced = true;
      emit({ type: 'notice', code: 'budget_by_tokens', message: unpricedNotice(current, totals) });
    }
    const remaining = remainingOf(current, totals);
    onRemaining(remaining);
    if (!spentOut(remaining)) return;
    const control = raise?.control();
    if (!raise || !control?.pause()) return stop(totals);
    asking = true;
    emit({
      type: 'notice',
      code: 'budget_paused',
      message: `the run's budget (${describe(current)}) is spent: the agent is paused until it is raised`,
    });
    const spent = {
      usd: totals.usd,
      tokens: totals.inputTokens + totals.outputTokens,
      budget: current,
      ...(totals.unpricedModels?.length ? { unpriced: totals.unpricedModels } : {}),
    };
    void raise.ask(spent).then(
      (next) => settle(control, next),
      () => settle(control, undefined),
    );
  };
  const settle = (control: PauseControl, next: Budget | undefined) => {
    asking = false;
    const totals = latest as RunTotals;
    // Not raised: the stop is asked while the agent is still paused; the attempt continues it only
    // once the request is in its hands (so it shuts down rather than takes one more step).
    if (next === undefined || spentOut(remainingOf(next, totals))) return stop(totals);
    control.resume();
    current = next;
    // A writer's raise is the run's budget from now on, whatever the shared limits have left.
    lowered = undefined;
    emit({ type: 'notice', code: 'budget_raised', message: `the run's budget was raised to ${describe(next)}` });
    check(totals);
  };
  return check;
}

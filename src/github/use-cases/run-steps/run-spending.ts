import { errorText } from '../../../core/errors/error-text.ts';
import type { RunTotals } from '../../../core/events/index.ts';
import type { Budget, BudgetSpent, RunEnd } from '../../../core/run/run-options.ts';
import {
  budgetWithin,
  type DailyLimit,
  type DailyStanding,
  dailyLimitsOf,
  dailyStandings,
  describeStanding,
  recordSpend,
} from '../../limits/daily-limits.ts';
import { liveDailyShare } from '../../limits/live-daily-share.ts';
import type { RunContext } from './plan-run.ts';
import type { RunReports } from './run-reports.ts';

/** A run's spending limits: its budget within the daily limits, and the day's count kept up. */
export interface RunSpending {
  /** The run's budget: `limits.budget` lowered to what the daily limits have left. */
  budget: Budget | undefined;
  /** How the day stands with this run's spending so far, for the comment that asks for a raise. */
  daily(spent: BudgetSpent): string | undefined;
  /**
   * With a shared ledger (the app's store): the run's budget as other runs spend the same limits
   * meanwhile (`RunOptions.budgetCeiling`); the run adds what it spends as it goes.
   */
  ceiling?: (totals: RunTotals) => Budget | undefined;
  /** Adds what the run spent to the day of each limit. Never rejects: a failure is noted. */
  record(end: RunEnd): Promise<void>;
}

/**
 * Reads today's spending for the run's daily limits (the repository's `limits.budget.daily`, the
 * front end's own) and lowers the run's budget to what is left; at the end, counts what it spent.
 * A run with no daily limit, or whose front end keeps no spending, has its own budget only. With a
 * ledger every run sees at once (the app's), the run adds as it spends and its budget follows what
 * the others spend meanwhile (live-daily-share.ts).
 */
export async function runSpending(ctx: RunContext, reports: RunReports): Promise<RunSpending> {
  const { job } = ctx;
  // `keepWork` is what the front end does with a spent run's work, not a limit the run is given.
  const { daily, keepWork: _keepWork, ...own } = job.config.limits.budget;
  const runBudget = own.usd === undefined && own.tokens === undefined ? undefined : own;
  const spend = ctx.options.deps.spend;
  const limits: DailyLimit[] = spend === undefined ? [] : dailyLimitsOf(spend, job.repo, daily);
  if (spend === undefined || limits.length === 0) {
    return { budget: runBudget, daily: () => undefined, record: async () => {} };
  }
  const now = () => spend.now?.() ?? new Date();
  let standings: DailyStanding[] = [];
  try {
    standings = await dailyStandings(spend, limits, now());
  } catch (error) {
    reports.note(`could not read today's spending (${errorText(error)}): this run counts against its own budget only`);
  }
  for (const standing of standings) reports.note(describeStanding(standing));
  if (spend.ledger.shared && standings.length === limits.length) {
    const share = liveDailyShare({
      spend,
      limits,
      standings,
      now,
      onError: (error) => reports.note(`could not count spending against the daily limit yet: ${errorText(error)}`),
    });
    return {
      budget: budgetWithin(runBudget, standings),
      ceiling: (totals) => share.ceiling(totals),
      daily: (spent) => {
        const first = share.standings(spent)[0];
        return first === undefined ? undefined : describeStanding(first);
      },
      async record(end) {
        const totals = end.totals;
        if (totals === undefined) return;
        try {
          await share.flush({ usd: totals.usd, tokens: totals.inputTokens + totals.outputTokens });
        } catch (error) {
          reports.note(`could not count this run's spending against the daily limit: ${errorText(error)}`);
        }
      },
    };
  }
  return {
    budget: budgetWithin(runBudget, standings),
    daily: (spent) => {
      const first = standings[0];
      if (first === undefined) return undefined;
      return describeStanding({
        limit: first.limit,
        spent: { usd: first.spent.usd + spent.usd, tokens: first.spent.tokens + spent.tokens },
      });
    },
    async record(end) {
      const totals = end.totals;
      if (totals === undefined) return;
      const spent = { usd: totals.usd, tokens: totals.inputTokens + totals.outputTokens };
      try {
        await recordSpend(spend, limits, spent, now());
      } catch (error) {
        reports.note(`could not count this run's spending against the daily limit: ${errorText(error)}`);
      }
    },
  };
}

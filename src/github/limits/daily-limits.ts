import type { Budget } from '../../core/run/run-options.ts';
import { formatUsd } from '../approvals/render-budget-comment.ts';
import type { RepoRef } from '../github-api.ts';
import { nextUtcMidnight, repoScope, type Spend, type SpendLedger, type SpendScope, utcDay } from './spend-ledger.ts';

/** One daily limit: whose spending it counts, how a reader calls it, and how much a UTC day may spend. */
export interface DailyLimit {
  scope: SpendScope;
  /** `this repository`, `this installation`. */
  label: string;
  limit: Budget;
}

/**
 * What a front end gives the use cases to keep daily limits: where spending is kept, and the
 * limits the front end itself sets (the app's per installation; the repository's come from its config).
 */
export interface SpendLimits {
  ledger: SpendLedger;
  /** Limits beside the repository's own (the app's per installation). */
  extra?: (repo: RepoRef) => readonly DailyLimit[];
  now?: () => Date;
}

/** A daily limit and what its scope spent today. */
export interface DailyStanding {
  limit: DailyLimit;
  spent: Spend;
}

/** The daily limits that hold for a run in `repo`: the repository's (from its config) and the front end's. */
export function dailyLimitsOf(
  spend: SpendLimits,
  repo: RepoRef,
  daily: { usd?: number; tokens?: number } | undefined,
): DailyLimit[] {
  const own =
    daily === undefined || (daily.usd === undefined && daily.tokens === undefined)
      ? []
      : [{ scope: repoScope(repo.owner, repo.repo), label: 'this repository', limit: pick(daily) }];
  return [...own, ...(spend.extra?.(repo) ?? [])];
}

/** What each limit's scope has spent today (UTC). */
export async function dailyStandings(
  spend: SpendLimits,
  limits: readonly DailyLimit[],
  now: Date,
): Promise<DailyStanding[]> {
  const day = utcDay(now);
  return Promise.all(limits.map(async (limit) => ({ limit, spent: await spend.ledger.spentOn(limit.scope, day) })));
}

/** The first limit its scope has already spent today, if any. */
export function reachedLimit(standings: readonly DailyStanding[]): DailyStanding | undefined {
  return standings.find(({ limit, spent }) => left(limit.limit, spent).some((n) => n <= 0));
}

/**
 * A run's budget within the daily limits: each of its limits lowered to what the day has left (a
 * daily limit with no per-run limit of its kind sets one). Undefined when nothing limits the run.
 */
export function budgetWithin(run: Budget | undefined, standings: readonly DailyStanding[]): Budget | undefined {
  let usd = run?.usd;
  let tokens = run?.tokens;
  for (const { limit, spent } of standings) {
    if (limit.limit.usd !== undefined)
      usd = Math.min(usd ?? Number.POSITIVE_INFINITY, Math.max(0, limit.limit.usd - spent.usd));
    if (limit.limit.tokens !== undefined) {
      tokens = Math.min(tokens ?? Number.POSITIVE_INFINITY, Math.max(0, limit.limit.tokens - spent.tokens));
    }
  }
  const budget = pick({ usd, tokens });
  return budget.usd === undefined && budget.tokens === undefined ? undefined : budget;
}

/** `today: $7.40 of $20.00 for this repository` (and tokens, when that limit is set). */
export function describeStanding({ limit, spent }: DailyStanding): string {
  const parts = [
    ...(limit.limit.usd === undefined ? [] : [`${formatUsd(spent.usd)} of ${formatUsd(limit.limit.usd)}`]),
    ...(limit.limit.tokens === undefined
      ? []
      : [`${spent.tokens.toLocaleString('en-US')} of ${limit.limit.tokens.toLocaleString('en-US')} tokens`]),
  ];
  return `today: ${parts.join(' and ')} for ${limit.label}`;
}

/**
 * Why a run does not start: the limit reached, what was spent, and when it resets, e.g.
 * "this repository has spent $20.40 of its $20.00 daily limit (UTC); it resets at 00:00 UTC, in 5 h 12 min".
 */
export function overLimitReason({ limit, spent }: DailyStanding, now: Date): string {
  const usdOver = limit.limit.usd !== undefined && spent.usd >= limit.limit.usd;
  const what = usdOver
    ? `${formatUsd(spent.usd)} of its ${formatUsd(limit.limit.usd ?? 0)} daily limit`
    : `${spent.tokens.toLocaleString('en-US')} of its ${(limit.limit.tokens ?? 0).toLocaleString('en-US')} daily tokens`;
  const minutes = Math.ceil((nextUtcMidnight(now).getTime() - now.getTime()) / 60_000);
  const inText = minutes >= 60 ? `${Math.floor(minutes / 60)} h ${minutes % 60} min` : `${minutes} min`;
  return `${limit.label} has spent ${what} today; the limit resets at 00:00 UTC, in ${inText}`;
}

/** Adds a run's spending to each limit's scope for the day `now` is in. */
export async function recordSpend(
  spend: SpendLimits,
  limits: readonly DailyLimit[],
  spent: Spend,
  now: Date,
): Promise<void> {
  if (spent.usd <= 0 && spent.tokens <= 0) return;
  const day = utcDay(now);
  const scopes = [...new Set(limits.map((l) => l.scope))];
  await Promise.all(scopes.map((scope) => spend.ledger.add(scope, day, spent)));
}

function left(limit: Budget, spent: Spend): number[] {
  return [
    ...(limit.usd === undefined ? [] : [limit.usd - spent.usd]),
    ...(limit.tokens === undefined ? [] : [limit.tokens - spent.tokens]),
  ];
}

function pick(budget: { usd?: number; tokens?: number }): Budget {
  return {
    ...(budget.usd === undefined ? {} : { usd: budget.usd }),
    ...(budget.tokens === undefined ? {} : { tokens: budget.tokens }),
  };
}

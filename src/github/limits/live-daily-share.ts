import type { RunTotals } from '../../core/events/index.ts';
import type { Budget } from '../../core/run/run-options.ts';
import { budgetWithin, type DailyLimit, type DailyStanding, type SpendLimits } from './daily-limits.ts';
import { type Spend, type SpendScope, utcDay } from './spend-ledger.ts';

/** A run's part of daily limits that other runs spend at the same time (a `shared` ledger). */
export interface LiveDailyShare {
  /** The run's budget within the limits, given what the others spent (`RunOptions.budgetCeiling`). */
  ceiling(totals: RunTotals): Budget | undefined;
  /** Each limit with what its scope spent today: the others as last read, and this run's `spent`. */
  standings(spent: Spend): DailyStanding[];
  /** Adds what the run spent and has not added yet (at its end). Rejects when the ledger does. */
  flush(spent: Spend): Promise<void>;
}

export interface LiveDailyShareOptions {
  spend: SpendLimits;
  limits: readonly DailyLimit[];
  /** What each limit's scope had spent when the run started (nothing of this run's yet). */
  standings: readonly DailyStanding[];
  now: () => Date;
  /** An addition that failed while the run ran (the run goes on; `flush` tries the rest again). */
  onError: (error: unknown) => void;
}

const spentOf = (totals: RunTotals): Spend => ({ usd: totals.usd, tokens: totals.inputTokens + totals.outputTokens });

/**
 * Daily limits that several runs spend at once (the app's replicas and workers): the run adds what
 * it spends as it goes (at each cost report, one addition in flight at a time), and reads from each
 * addition's answer what the others have spent. Its budget is then what the limit leaves after the
 * others, so that runs side by side stop near the limit rather than each spending what was left when
 * it started. What the others spent is as of this run's last addition: the limit holds to one
 * response per run, plus what the others spent since.
 */
export function liveDailyShare(options: LiveDailyShareOptions): LiveDailyShare {
  const { spend, limits } = options;
  const scopes = [...new Set(limits.map((l) => l.scope))];
  const others = new Map<SpendScope, Spend>(options.standings.map((s) => [s.limit.scope, { ...s.spent }]));
  let added: Spend = { usd: 0, tokens: 0 };
  let inFlight: Promise<void> | undefined;
  let wanted: Spend | undefined;

  async function add(spent: Spend): Promise<void> {
    const delta = { usd: Math.max(0, spent.usd - added.usd), tokens: Math.max(0, spent.tokens - added.tokens) };
    if (delta.usd <= 0 && delta.tokens <= 0) return;
    const day = utcDay(options.now());
    const totals = await Promise.all(scopes.map((scope) => spend.ledger.add(scope, day, delta)));
    added = { usd: added.usd + delta.usd, tokens: added.tokens + delta.tokens };
    scopes.forEach((scope, i) => {
      const total = totals[i] as Spend;
      others.set(scope, { usd: Math.max(0, total.usd - added.usd), tokens: Math.max(0, total.tokens - added.tokens) });
    });
  }

  /** One addition at a time; reports while one is in flight are added together after it. */
  function sync(spent: Spend): void {
    wanted = spent;
    if (inFlight) return;
    inFlight = (async () => {
      while (wanted !== undefined) {
        const next = wanted;
        wanted = undefined;
        await add(next).catch(options.onError);
      }
    })().finally(() => {
      inFlight = undefined;
    });
  }

  const othersStandings = (): DailyStanding[] =>
    limits.map((limit) => ({ limit, spent: others.get(limit.scope) ?? { usd: 0, tokens: 0 } }));

  return {
    ceiling(totals) {
      sync(spentOf(totals));
      return budgetWithin(undefined, othersStandings());
    },
    standings(spent) {
      return othersStandings().map(({ limit, spent: before }) => ({
        limit,
        spent: { usd: before.usd + spent.usd, tokens: before.tokens + spent.tokens },
      }));
    },
    async flush(spent) {
      while (inFlight) await inFlight;
      await add(spent);
    },
  };
}

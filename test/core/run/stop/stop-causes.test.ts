import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { armAbort } from '../../../../src/core/run/stop/abort.ts';
import { armBudget, type BudgetRemaining } from '../../../../src/core/run/stop/budget.ts';
import { armInactivity } from '../../../../src/core/run/stop/inactivity.ts';
import { leaseExpiry } from '../../../../src/core/run/stop/lease.ts';
import type { StopCause } from '../../../../src/core/run/stop/stop-cause.ts';
import { armTimeout } from '../../../../src/core/run/stop/timeout.ts';

const totals = (inputTokens: number, outputTokens: number, usd: number) => ({
  inputTokens,
  outputTokens,
  cacheReadTokens: 0,
  cacheWriteTokens: 0,
  usd,
});

describe('stop causes', () => {
  let causes: StopCause[];
  const requestStop = (cause: StopCause) => causes.push(cause);
  beforeEach(() => {
    causes = [];
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('timeout: fires once the whole-run limit has passed since the start, not after it is disarmed', () => {
    const startedAt = Date.now();
    vi.advanceTimersByTime(400);
    armTimeout(1000, startedAt, requestStop);
    vi.advanceTimersByTime(599);
    expect(causes).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(causes).toEqual([
      {
        reason: 'timeout',
        shutdown: 'timeout',
        message: 'timed out after 1000 ms',
        error: { code: 'timeout', message: 'the run exceeded its 1000 ms limit' },
      },
    ]);
    armTimeout(10, Date.now(), requestStop)();
    vi.advanceTimersByTime(100);
    expect(causes).toHaveLength(1);
  });

  it('inactivity: activity restarts the limit', () => {
    const watch = armInactivity(100, requestStop);
    vi.advanceTimersByTime(80);
    watch.activity();
    vi.advanceTimersByTime(80);
    expect(causes).toEqual([]);
    vi.advanceTimersByTime(20);
    expect(causes.map((c) => [c.reason, c.error?.code])).toEqual([['inactivity', 'inactivity']]);
    watch.clear();
  });

  it('abort: the reason of the aborted signal becomes the message, with no error event', () => {
    const own = new AbortController();
    const caller = new AbortController();
    const unarm = armAbort([caller.signal, undefined, own.signal], requestStop);
    own.abort('stop now');
    expect(causes).toEqual([{ reason: 'aborted', shutdown: 'cancelled', message: 'stop now' }]);
    unarm();
    caller.abort(new Error('late'));
    expect(causes).toHaveLength(1);
  });

  it('lease: the run fails with lease_expired', () => {
    leaseExpiry(requestStop)();
    expect(causes).toEqual([
      {
        reason: 'failed',
        shutdown: 'lease_expired',
        message: 'lease expired',
        error: { code: 'lease_expired', message: 'the lease of this run expired' },
      },
    ]);
  });

  it('budget: reports what is left on every cost, and stops once tokens or USD are spent', () => {
    expect(
      armBudget(
        undefined,
        () => undefined,
        requestStop,
        () => {},
      ),
    ).toBeUndefined();
    const remaining: BudgetRemaining[] = [];
    const onCost = armBudget(
      { tokens: 1000, usd: 1 },
      (r) => remaining.push(r),
      requestStop,
      () => {},
    );
    onCost?.(totals(600, 100, 0.5));
    expect(causes).toEqual([]);
    onCost?.(totals(600, 100, 1.25));
    expect(remaining).toEqual([
      { tokens: 300, usd: 0.5 },
      { tokens: 300, usd: -0.25 },
    ]);
    expect(causes).toEqual([
      {
        reason: 'budget_exceeded',
        shutdown: 'budget_exceeded',
        message: 'budget exceeded',
        error: { code: 'budget_exceeded', message: "the run's budget is spent (USD 1.2500)" },
      },
    ]);
  });

  it('budget ceiling: lowers the budget at each report (what shared daily limits leave); a raise then holds alone', async () => {
    let ceiling = { tokens: 5000 };
    const remaining: BudgetRemaining[] = [];
    const paused: string[] = [];
    const asked: number[] = [];
    const control = {
      pause: () => {
        paused.push('pause');
        return true;
      },
      resume: () => paused.push('resume'),
    };
    const onCost = armBudget(
      { tokens: 10_000 },
      (r) => remaining.push(r),
      requestStop,
      () => {},
      {
        ask: async (spent) => {
          asked.push(spent.budget.tokens ?? 0);
          return { tokens: 20_000 };
        },
        control: () => control,
      },
      () => ceiling,
    );
    onCost?.(totals(1000, 0, 0));
    ceiling = { tokens: 3000 }; // another run spent meanwhile
    onCost?.(totals(2000, 0, 0));
    expect(remaining).toEqual([{ tokens: 4000 }, { tokens: 1000 }]);
    onCost?.(totals(3100, 0, 0));
    expect(asked).toEqual([3000]);
    await vi.runAllTimersAsync();
    // Raised to 20,000 by a writer: the shared limit no longer lowers it.
    ceiling = { tokens: 0 };
    onCost?.(totals(4000, 0, 0));
    expect(remaining.at(-1)).toEqual({ tokens: 16_000 });
    expect(paused).toEqual(['pause', 'resume']);
    expect(causes).toEqual([]);
  });

  it('budget not raised: the stop is asked while the agent is still paused, never after resuming it', async () => {
    const log: string[] = [];
    const control = {
      pause: () => {
        log.push('pause');
        return true;
      },
      resume: () => log.push('resume'),
    };
    const onCost = armBudget(
      { tokens: 1000 },
      () => {},
      (cause) => log.push(`stop: ${cause.reason}`),
      () => {},
      { ask: async () => undefined, control: () => control },
    );
    onCost?.(totals(1000, 100, 0));
    await vi.runAllTimersAsync();
    // Resumed first, the agent would take one more step before it read that it must stop; the
    // attempt's stop continues it once the request is in its hands.
    expect(log).toEqual(['pause', 'stop: budget_exceeded']);
  });
});

import { describe, expect, it } from 'vitest';
import type { RunTotals } from '../../../src/core/events/index.ts';
import type { DailyLimit, DailyStanding } from '../../../src/github/limits/daily-limits.ts';
import { liveDailyShare } from '../../../src/github/limits/live-daily-share.ts';
import { createMemorySpendLedger } from '../../../src/github/limits/memory-spend-ledger.ts';
import { utcDay } from '../../../src/github/limits/spend-ledger.ts';

const now = () => new Date('2026-12-07T12:00:00Z');
const DAY = utcDay(now());
const limit: DailyLimit = { scope: 'repo:octo/demo', label: 'this repository', limit: { tokens: 10_000 } };
const totals = (tokens: number): RunTotals => ({
  inputTokens: tokens,
  outputTokens: 0,
  cacheReadTokens: 0,
  cacheWriteTokens: 0,
  usd: 0,
});
const settle = () => new Promise((r) => setTimeout(r, 5));

describe('liveDailyShare: runs side by side on one shared ledger', () => {
  it('each run adds as it spends, and its budget is what the limit leaves after the others', async () => {
    const ledger = createMemorySpendLedger();
    await ledger.add('repo:octo/demo', DAY, { usd: 0, tokens: 1_000 }); // an earlier run today
    const start: DailyStanding[] = [{ limit, spent: await ledger.spentOn('repo:octo/demo', DAY) }];
    const errors: unknown[] = [];
    const share = () =>
      liveDailyShare({ spend: { ledger }, limits: [limit], standings: start, now, onError: (e) => errors.push(e) });
    const a = share();
    const b = share();
    expect(a.ceiling(totals(4_000))).toEqual({ tokens: 9_000 }); // as of the start
    await settle();
    expect(await ledger.spentOn('repo:octo/demo', DAY)).toEqual({ usd: 0, tokens: 5_000 });
    // B's first addition reads what A added: its budget is what is left after the earlier run and A.
    b.ceiling(totals(1_000));
    await settle();
    expect(b.ceiling(totals(1_000))).toEqual({ tokens: 5_000 });
    expect(b.standings({ usd: 0, tokens: 1_000 })[0]?.spent).toEqual({ usd: 0, tokens: 6_000 });
    // A sees B the same way; more reports while an addition is in flight are added together after it.
    a.ceiling(totals(4_500));
    a.ceiling(totals(5_000));
    await settle();
    expect(a.ceiling(totals(5_000))).toEqual({ tokens: 8_000 });
    await a.flush({ usd: 0, tokens: 5_500 });
    await b.flush({ usd: 0, tokens: 1_200 });
    // Each token counted once: the earlier run's 1,000, A's 5,500, B's 1,200.
    expect(await ledger.spentOn('repo:octo/demo', DAY)).toEqual({ usd: 0, tokens: 7_700 });
    expect(errors).toEqual([]);
  });

  it('an addition that fails is reported and tried again with the rest at the end', async () => {
    const ledger = createMemorySpendLedger();
    let fail = true;
    const flaky = {
      ...ledger,
      add: (...args: Parameters<typeof ledger.add>) =>
        fail ? Promise.reject(new Error('connection dropped')) : ledger.add(...args),
    };
    const errors: string[] = [];
    const share = liveDailyShare({
      spend: { ledger: flaky },
      limits: [limit],
      standings: [{ limit, spent: { usd: 0, tokens: 0 } }],
      now,
      onError: (e) => errors.push(String(e)),
    });
    expect(share.ceiling(totals(2_000))).toEqual({ tokens: 10_000 });
    await settle();
    expect(errors).toEqual(['Error: connection dropped']);
    fail = false;
    await share.flush({ usd: 0, tokens: 3_000 });
    expect(await ledger.spentOn('repo:octo/demo', DAY)).toEqual({ usd: 0, tokens: 3_000 });
  });
});

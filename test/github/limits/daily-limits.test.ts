import { describe, expect, it } from 'vitest';
import {
  budgetWithin,
  type DailyLimit,
  dailyLimitsOf,
  dailyStandings,
  describeStanding,
  overLimitReason,
  reachedLimit,
  recordSpend,
} from '../../../src/github/limits/daily-limits.ts';
import { createMemorySpendLedger } from '../../../src/github/limits/memory-spend-ledger.ts';

const repo = { owner: 'Octo', repo: 'Demo' };
const repoLimit: DailyLimit = { scope: 'repo:octo/demo', label: 'this repository', limit: { usd: 20 } };
const installation: DailyLimit = { scope: 'installation:7', label: 'this installation', limit: { tokens: 1_000_000 } };

describe('daily limits (issue 37.2)', () => {
  it('holds the repository’s limit from its config and the front end’s own', () => {
    const ledger = createMemorySpendLedger();
    expect(dailyLimitsOf({ ledger }, repo, undefined)).toEqual([]);
    expect(dailyLimitsOf({ ledger }, repo, { usd: 20 })).toEqual([repoLimit]);
    expect(dailyLimitsOf({ ledger, extra: () => [installation] }, repo, undefined)).toEqual([installation]);
  });

  it('counts runs per scope and UTC day, and says when a limit is reached and when it resets', async () => {
    const ledger = createMemorySpendLedger();
    const spend = { ledger };
    const limits = [repoLimit, installation];
    const at = new Date('2026-12-07T18:47:30Z');
    await recordSpend(spend, limits, { usd: 12.5, tokens: 400_000 }, at);
    let standings = await dailyStandings(spend, limits, at);
    expect(reachedLimit(standings)).toBeUndefined();
    expect(describeStanding(standings[0]!)).toBe('today: $12.50 of $20.00 for this repository');
    expect(describeStanding(standings[1]!)).toBe('today: 400,000 of 1,000,000 tokens for this installation');
    // The run's own $5 is lowered to the day's $7.50 left only when less is left.
    expect(budgetWithin({ usd: 5 }, standings)).toEqual({ usd: 5, tokens: 600_000 });
    expect(budgetWithin({ usd: 10 }, standings)).toEqual({ usd: 7.5, tokens: 600_000 });
    await recordSpend(spend, limits, { usd: 8, tokens: 1000 }, at);
    standings = await dailyStandings(spend, limits, at);
    const reached = reachedLimit(standings);
    expect(reached?.limit).toEqual(repoLimit);
    expect(overLimitReason(reached!, at)).toBe(
      'this repository has spent $20.50 of its $20.00 daily limit today; the limit resets at 00:00 UTC, in 5 h 13 min',
    );
    expect(budgetWithin({ usd: 5 }, standings)).toEqual({ usd: 0, tokens: 599_000 });
    // The next UTC day starts from nothing.
    const tomorrow = new Date('2026-12-08T00:00:01Z');
    expect(reachedLimit(await dailyStandings(spend, limits, tomorrow))).toBeUndefined();
  });

  it('a run that spent nothing adds nothing; without limits a run keeps its own budget', async () => {
    const ledger = createMemorySpendLedger();
    await recordSpend({ ledger }, [repoLimit], { usd: 0, tokens: 0 }, new Date());
    expect(await ledger.spentOn('repo:octo/demo', '2026-12-07')).toEqual({ usd: 0, tokens: 0 });
    expect(budgetWithin(undefined, [])).toBeUndefined();
    expect(budgetWithin({ tokens: 10 }, [])).toEqual({ tokens: 10 });
  });
});

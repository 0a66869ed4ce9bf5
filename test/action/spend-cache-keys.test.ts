import { describe, expect, it } from 'vitest';
import {
  newestPerWriter,
  parseSpendCacheKey,
  spendCacheKey,
  spendCacheKeyPrefix,
  spendWriterId,
  sumTotals,
} from '../../src/action/spend-cache-keys.ts';
import { SpendLedgerError } from '../../src/github/limits/spend-ledger-error.ts';

const prefix = spendCacheKeyPrefix('repo:octo/hello', '2026-03-14');

describe('the keys of the Action’s spending entries', () => {
  it('start with the scope’s day, and refuse a scope or day no key can be made of', () => {
    expect(prefix).toBe('agent-mux-spend-v2/repo:octo/hello/2026-03-14/');
    expect(spendCacheKeyPrefix('installation:42', '2026-03-14')).toBe('agent-mux-spend-v2/installation:42/2026-03-14/');
    for (const [scope, day] of [
      ['repo:octo/a,b', '2026-03-14'],
      ['repo:octo/a/2026-03-14', '2026-03-14'],
      ['repo:octo', '2026-03-14'],
      ['repo:octo/hello', '14.3.2026'],
    ] as const) {
      expect(() => spendCacheKeyPrefix(scope, day)).toThrow(SpendLedgerError);
    }
  });

  it('name the writer by run, attempt, job and a random part, in the characters a key path allows', () => {
    const env = { GITHUB_RUN_ID: '8123456789', GITHUB_RUN_ATTEMPT: '2', GITHUB_JOB: 'agent' };
    expect(spendWriterId(env, 'a1b2c3d4')).toBe('8123456789-2-agent-a1b2c3d4');
    expect(spendWriterId(env, 'ffff0000')).not.toBe(spendWriterId(env, 'a1b2c3d4'));
    expect(spendWriterId({ ...env, GITHUB_RUN_ATTEMPT: '3' }, 'a1b2c3d4')).not.toBe(spendWriterId(env, 'a1b2c3d4'));
    expect(spendWriterId({ GITHUB_JOB: 'a/b,c d' }, 'r')).toBe('run-1-a_b_c_d-r');
  });

  it('hold the running total, stay under 512 characters with no comma, and read back', () => {
    const longest = spendCacheKeyPrefix(`repo:${'o'.repeat(39)}/${'r'.repeat(100)}`, '2026-03-14');
    const writer = spendWriterId(
      { GITHUB_RUN_ID: '9'.repeat(20), GITHUB_RUN_ATTEMPT: '99', GITHUB_JOB: 'j'.repeat(100) },
      'f'.repeat(8),
    );
    const total = { seq: 999_999, tokens: Number.MAX_SAFE_INTEGER, microUsd: Number.MAX_SAFE_INTEGER };
    const key = spendCacheKey(longest, writer, total);
    expect(key.length).toBeLessThan(512);
    expect(key).not.toContain(',');
    expect(parseSpendCacheKey(longest, key)).toEqual({ writer, total });
    expect(spendCacheKey(prefix, 'w', { seq: 3, tokens: 1200, microUsd: 1_750_000 })).toBe(
      `${prefix}w/3/1200t-1750000u`,
    );
  });

  it.each([
    ['another day', 'agent-mux-spend-v2/repo:octo/hello/2026-03-15/w/1/1t-1u'],
    ['a v1 entry', 'agent-mux-spend-v1/repo:octo/hello/2026-03-14/1773446400000'],
    ['no total', `${prefix}w/1`],
    ['no number', `${prefix}w/1t-1u`],
    ['entry number 0', `${prefix}w/0/1t-1u`],
    ['a negative total', `${prefix}w/1/-1t-1u`],
    ['a fraction', `${prefix}w/1/1.5t-1u`],
    ['beyond a safe integer', `${prefix}w/1/99999999999999999t-1u`],
    ['a further segment', `${prefix}w/1/1t-1u/x`],
    ['a writer with a dot', `${prefix}w.x/1/1t-1u`],
  ])('ignore a key that is not an entry of the day: %s', (_, key) => {
    expect(parseSpendCacheKey(prefix, key)).toBeUndefined();
    expect(newestPerWriter(prefix, [key]).size).toBe(0);
  });

  it('sum each writer’s newest entry, whatever the order they are listed in', () => {
    const keys = [
      `${prefix}run-a/2/300t-30000u`,
      `${prefix}run-a/1/100t-10000u`,
      `${prefix}run-b/1/50t-5u`,
      `${prefix}run-a/10/900t-90000u`,
      `${prefix}run-b/garbage`,
      'agent-mux-spend-v2/repo:octo/other/2026-03-14/run-c/1/7t-7u',
    ];
    const newest = newestPerWriter(prefix, keys);
    expect(Object.fromEntries(newest)).toEqual({
      'run-a': { seq: 10, tokens: 900, microUsd: 90_000 },
      'run-b': { seq: 1, tokens: 50, microUsd: 5 },
    });
    expect(sumTotals(newest.values())).toEqual({ usd: 0.090005, tokens: 950 });
    expect(sumTotals([])).toEqual({ usd: 0, tokens: 0 });
  });
});

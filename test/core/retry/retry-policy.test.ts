import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  defaultRetryPolicy,
  nextDelay,
  type RetryPolicy,
  resolveRetryPolicy,
  retryPolicySchema,
  shouldRetry,
} from '../../../src/core/retry/retry-policy.ts';

const policy = (overrides: Partial<RetryPolicy> = {}): RetryPolicy => ({
  ...defaultRetryPolicy,
  attempts: 5,
  ...overrides,
});

describe('retryPolicySchema', () => {
  it('fills in the defaults: one attempt, 1 s doubling to 30 s, 20% jitter, crashes only', () => {
    expect(retryPolicySchema.parse({})).toEqual({
      attempts: 1,
      backoffMs: 1000,
      maxBackoffMs: 30_000,
      jitter: 0.2,
      retryOn: ['crashed'],
    });
    expect(resolveRetryPolicy({ attempts: 3, retryOn: ['timeout'] })).toMatchObject({
      attempts: 3,
      retryOn: ['timeout'],
    });
    expect(defaultRetryPolicy.attempts).toBe(1);
  });

  it('rejects bad values and unknown keys', () => {
    for (const bad of [{ attempts: 0 }, { jitter: 1.5 }, { backoffMs: -1 }, { retryOn: ['aborted'] }, { tries: 3 }]) {
      expect(retryPolicySchema.safeParse(bad).success, JSON.stringify(bad)).toBe(false);
    }
  });
});

describe('nextDelay', () => {
  it('doubles from backoffMs and caps at maxBackoffMs, without jitter', () => {
    const p = policy({ jitter: 0, backoffMs: 1000, maxBackoffMs: 5000 });
    expect([1, 2, 3, 4, 5, 50, 5000].map((a) => nextDelay(p, a))).toEqual([1000, 2000, 4000, 5000, 5000, 5000, 5000]);
  });

  it('draws the jitter share of the delay at random', () => {
    const p = policy({ jitter: 0.5, backoffMs: 1000 });
    expect(nextDelay(p, 1, () => 0)).toBe(1000);
    expect(nextDelay(p, 1, () => 0.5)).toBe(750);
    expect(nextDelay(p, 1, () => 0.999_999)).toBe(500);
  });

  it('stays within [base * (1 - jitter), min(max, backoff * 2^(n-1))]', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 60_000 }),
        fc.integer({ min: 0, max: 600_000 }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.integer({ min: 1, max: 2000 }),
        fc.double({ min: 0, max: 1, noNaN: true, maxExcluded: true }),
        (backoffMs, maxBackoffMs, jitter, attempt, r) => {
          const p = policy({ backoffMs, maxBackoffMs, jitter });
          const delay = nextDelay(p, attempt, () => r);
          const base = backoffMs === 0 ? 0 : Math.min(maxBackoffMs, backoffMs * 2 ** (attempt - 1));
          expect(Number.isInteger(delay)).toBe(true);
          expect(delay).toBeLessThanOrEqual(Math.min(maxBackoffMs, Math.round(base)));
          expect(delay).toBeGreaterThanOrEqual(Math.floor(base * (1 - jitter)));
        },
      ),
    );
  });

  it('never grows with a fixed random draw', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 100 }), fc.double({ min: 0, max: 1, noNaN: true }), (attempt, r) => {
        const p = policy({ jitter: 0 });
        expect(nextDelay(p, attempt + 1, () => r)).toBeGreaterThanOrEqual(nextDelay(p, attempt, () => r));
      }),
    );
  });
});

describe('shouldRetry', () => {
  it('retries listed reasons while attempts remain', () => {
    const p = policy({ attempts: 3, retryOn: ['crashed', 'timeout'] });
    expect(shouldRetry(p, 1, 'crashed')).toBe(true);
    expect(shouldRetry(p, 2, 'timeout')).toBe(true);
    expect(shouldRetry(p, 3, 'crashed')).toBe(false);
    expect(shouldRetry(p, 1, 'failed')).toBe(false);
    expect(shouldRetry(p, 1, 'inactivity')).toBe(false);
  });

  it('never retries completed, aborted or over-budget runs, nor with the default policy', () => {
    const p = policy({ attempts: 10, retryOn: ['crashed', 'timeout', 'inactivity', 'failed'] });
    for (const reason of ['completed', 'aborted', 'budget_exceeded'] as const)
      expect(shouldRetry(p, 1, reason)).toBe(false);
    expect(shouldRetry(defaultRetryPolicy, 1, 'crashed')).toBe(false);
  });
});

import { z } from 'zod';
import type { RunEndReason } from '../events/index.ts';
import type { RetryPolicy } from '../run/run-options.ts';

export type { RetryPolicy };

/** The run ends that may be retried. `completed`, `aborted` and `budget_exceeded` never are. */
export const retryableReasons = ['crashed', 'timeout', 'inactivity', 'failed'] as const;
export type RetryableReason = (typeof retryableReasons)[number];

/**
 * A retry policy as written in configuration; every field has a default.
 *
 * | field | default | meaning |
 * | --- | --- | --- |
 * | `attempts` | `1` | total attempts including the first; 1 turns retries off |
 * | `backoffMs` | `1000` | delay before the second attempt; doubled for each later one |
 * | `maxBackoffMs` | `30000` | no delay is longer than this |
 * | `jitter` | `0.2` | share (0..1) of each delay drawn at random, so retries of many runs spread out |
 * | `retryOn` | `['crashed']` | which run ends are retried |
 */
export const retryPolicySchema = z.strictObject({
  attempts: z.number().int().min(1).default(1),
  backoffMs: z.number().int().nonnegative().default(1000),
  maxBackoffMs: z.number().int().nonnegative().default(30_000),
  jitter: z.number().min(0).max(1).default(0.2),
  retryOn: z.array(z.enum(retryableReasons)).default(['crashed']),
});

/** What a retry policy may look like before defaults are applied. */
export type RetryPolicyInput = z.input<typeof retryPolicySchema>;

// The schema's output must stay assignable to the run options' interface.
const _schemaMatchesInterface: (value: z.output<typeof retryPolicySchema>) => RetryPolicy = (value) => value;
void _schemaMatchesInterface;

/** The policy with every default: one attempt, i.e. no retry. */
export const defaultRetryPolicy: RetryPolicy = Object.freeze({
  ...retryPolicySchema.parse({}),
  retryOn: Object.freeze(['crashed'] as const),
});

/** Fills in defaults and validates; throws zod's error on a bad policy. */
export function resolveRetryPolicy(input: RetryPolicyInput = {}): RetryPolicy {
  return retryPolicySchema.parse(input);
}

/**
 * Milliseconds to wait after attempt number `attempt` (1-based) failed, before the next one.
 * The base delay is `backoffMs * 2^(attempt-1)` capped at `maxBackoffMs`; jitter then draws
 * the share `jitter` of it at random, so the result lies in `[base * (1 - jitter), base]`.
 */
export function nextDelay(policy: RetryPolicy, attempt: number, random: () => number = Math.random): number {
  // Capped so that 2 ** exponent stays finite (0 * Infinity would be NaN).
  const exponent = Math.min(52, Math.max(0, Math.floor(attempt) - 1));
  const cap = Math.max(0, policy.maxBackoffMs);
  const base = Math.min(cap, Math.max(0, policy.backoffMs) * 2 ** exponent);
  const jitter = Math.min(1, Math.max(0, policy.jitter));
  const r = Math.min(1, Math.max(0, random()));
  return Math.round(base * (1 - jitter * r));
}

/** True when attempt number `attempt` (1-based) ended for a retried reason and attempts remain. */
export function shouldRetry(policy: RetryPolicy, attempt: number, reason: RunEndReason): boolean {
  if (attempt >= policy.attempts) return false;
  return (policy.retryOn as readonly string[]).includes(reason);
}

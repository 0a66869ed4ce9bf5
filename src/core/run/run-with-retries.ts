/** The attempts of one run: the first, then the retries `RunOptions.retry` allows. */
import { nextDelay, shouldRetry } from '../retry/retry-policy.ts';
import type { AttemptResult, StopRequest } from './attempt-result.ts';
import { type BudgetTarget, type RunParts, runAttempt } from './run-attempt.ts';
import { waitRetry } from './wait-retry.ts';
import { withToolOutcome } from './with-tool-outcome.ts';

/** How a run's attempts ended: the last one's result, and how many were started. */
export interface RetriesEnd {
  last: AttemptResult;
  attempts: number;
}

/**
 * Runs attempts of `run` until one ends in a way the retry policy does not retry, or a stop is
 * asked for (after an attempt, or while waiting to retry); each retry is announced as a
 * recoverable `agent_error`. A throw ends the attempts `failed`, with a fatal `internal` error.
 * `onTarget` is given what hears of budget changes while an attempt runs.
 */
export async function runWithRetries(
  run: RunParts,
  onTarget: (target: BudgetTarget | undefined) => void,
): Promise<RetriesEnd> {
  const { options, emitter, stopper } = run;
  const policy = options.retry;
  let attempt = 0;
  let last: AttemptResult = { reason: 'failed', message: 'not started' };
  try {
    for (;;) {
      attempt++;
      last = withToolOutcome(await runAttempt(run, onTarget), run.tools);
      if (stopper.pending || !policy || !shouldRetry(policy, attempt, last.reason)) break;
      const delay = nextDelay(policy, attempt);
      emitter.emit({
        type: 'error',
        code: 'agent_error',
        message: `attempt ${attempt} ended ${last.reason}${last.message ? ` (${last.message})` : ''}; retrying in ${delay} ms`,
        recoverable: true,
      });
      await waitRetry(delay, [run.signal, options.signal]);
      const stopped = stopper.pending as StopRequest | undefined; // set while we waited
      if (stopped) {
        last = { reason: stopped.reason, message: stopped.message };
        break;
      }
    }
  } catch (error) {
    emitter.emit({ type: 'error', code: 'internal', message: (error as Error).message, recoverable: false });
    last = { reason: 'failed', message: (error as Error).message };
  }
  return { last, attempts: attempt };
}

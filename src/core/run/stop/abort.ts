import { RunLimitError } from '../../errors/run-limit-error.ts';
import type { RequestStop } from './stop-cause.ts';

/**
 * Arms the run's abort: the caller's `signal` or the handle's own `abort()` stop the run as
 * `aborted` (`cancelled` for the agent), with the abort's reason as its message and no error event;
 * a `RunLimitError` reason (a host's disk limit) ends it `budget_exceeded`, a failure.
 * Returns the function that stops listening to the caller's signal.
 */
export function armAbort(signals: readonly (AbortSignal | undefined)[], requestStop: RequestStop): () => void {
  const live = signals.filter((signal): signal is AbortSignal => signal !== undefined);
  const onAbort = () => {
    const reason: unknown = live.find((signal) => signal.aborted)?.reason;
    const message = typeof reason === 'string' ? reason : reason instanceof Error ? reason.message : 'aborted';
    // A host's limit (disk) ends the run as a failure, not as a cancel.
    requestStop({
      reason: RunLimitError.isInstance(reason) ? 'budget_exceeded' : 'aborted',
      shutdown: 'cancelled',
      message,
    });
  };
  for (const signal of live) signal.addEventListener('abort', onAbort, { once: true });
  return () => {
    for (const signal of live) signal.removeEventListener('abort', onAbort);
  };
}

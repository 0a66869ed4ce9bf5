import type { Lease, RunStore } from './store/run-store.ts';
import { StaleLeaseError } from './store/stale-lease-error.ts';
import { isTransientError } from './store/transient-error.ts';

/**
 * The waits between attempts to save a finished run while the database is away: about two minutes
 * in all, short at first so that a run is saved soon after the database is back, before recovery
 * (every lease period, on any replica) could take the unsaved run for a crashed one and retry it.
 */
export const FINISH_RETRY_DELAYS_MS: readonly number[] = [
  500, 1_000, 2_000, 4_000, 8_000, 8_000, 8_000, 8_000, 8_000, 8_000, 8_000, 8_000, 8_000, 8_000, 8_000, 8_000, 8_000,
  8_000,
];

/**
 * Saves a finished run's outcome (`store.finish`), trying again while the database fails for a
 * passing reason (`isTransientError`), so that a success already reported on GitHub is not left
 * `running` and then retried by recovery as if the worker had crashed. Resolves `stale` when
 * another worker took the run over meanwhile (`StaleLeaseError`); throws any other error, or the
 * last transient one once the waits are used up.
 */
/** What `store.finish` saves. */
type RunOutcome = Parameters<RunStore['finish']>[1];

export async function finishRun(
  store: Pick<RunStore, 'finish'>,
  lease: Lease,
  outcome: RunOutcome,
  log: (line: string) => void,
  delaysMs: readonly number[] = FINISH_RETRY_DELAYS_MS,
): Promise<{ stale: boolean }> {
  for (let attempt = 0; ; attempt++) {
    try {
      await store.finish(lease, outcome);
      if (attempt > 0) log(`run ${lease.runId}: ${outcome.state} saved at attempt ${attempt + 1}`);
      return { stale: false };
    } catch (error) {
      if (StaleLeaseError.isInstance(error)) return { stale: true };
      const delay = delaysMs[attempt];
      if (delay === undefined || !isTransientError(error)) throw error;
      const reason = error instanceof Error ? error.message : String(error);
      log(`run ${lease.runId}: could not save ${outcome.state} (${reason}); trying again in ${delay / 1000} s`);
      await new Promise((resolve) => setTimeout(resolve, delay));
    }
  }
}

import { errorText } from '../core/errors/error-text.ts';
import type { Lease, RunStore, StoredRun } from './store/run-store.ts';
import { StaleLeaseError } from './store/stale-lease-error.ts';

/** Why an attempt stops, and concludes `neutral`, once another worker holds the run. */
export const TAKEN_OVER = 'another worker took the run over (its lease had expired)';

/** A claimed run's lease, kept alive while the run goes on. */
export interface HeldLease {
  /** The lease as last renewed. */
  current(): Lease;
  /** Whether another worker holds the run now (a renewal was refused). */
  readonly stale: boolean;
  /**
   * Asked before a conclusion is written: `TAKEN_OVER` when a renewal is refused (a later attempt
   * owns the run, its check run is the run's); undefined when the lease holds, or when the database
   * cannot be reached (the run concludes as usual).
   */
  superseded(): Promise<string | undefined>;
  /** Says the run was finished elsewhere (its finish was refused). */
  markStale(): void;
  /** Stops renewing and watching for cancellation. */
  stop(): void;
}

/**
 * Holds `first` for `run`: renewed every third of `leaseMs` (a `StaleLeaseError` aborts the run with
 * `TAKEN_OVER`), and the run's `cancelRequested` read every `cancelPollMs` (aborting it when set).
 */
export function holdLease(input: {
  store: RunStore;
  run: StoredRun;
  first: Lease;
  leaseMs: number;
  cancelPollMs: number;
  abort: AbortController;
  log: (line: string) => void;
}): HeldLease {
  const { store, run, leaseMs, abort, log } = input;
  let lease = input.first;
  let stale = false;
  const renewer = setInterval(
    () => {
      store.renew(lease, leaseMs).then(
        (renewed) => {
          lease = renewed;
        },
        (error: unknown) => {
          if (StaleLeaseError.isInstance(error)) {
            stale = true;
            abort.abort(TAKEN_OVER);
          } else log(`run ${run.id}: lease renewal failed: ${errorText(error)}`);
        },
      );
    },
    Math.max(1, Math.floor(leaseMs / 3)),
  );
  const canceller = setInterval(() => {
    store.get(run.id).then(
      (current) => {
        if (current?.cancelRequested) abort.abort('the run was cancelled');
      },
      (error: unknown) => log(`run ${run.id}: ${errorText(error)}`),
    );
  }, input.cancelPollMs);
  return {
    current: () => lease,
    get stale() {
      return stale;
    },
    async superseded() {
      if (stale) return TAKEN_OVER;
      try {
        lease = await store.renew(lease, leaseMs);
        return undefined;
      } catch (error) {
        if (!StaleLeaseError.isInstance(error)) return undefined;
        stale = true;
        return TAKEN_OVER;
      }
    },
    markStale() {
      stale = true;
    },
    stop() {
      clearInterval(renewer);
      clearInterval(canceller);
    },
  };
}

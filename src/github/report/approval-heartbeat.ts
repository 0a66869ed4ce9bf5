import type { Clock } from '../pacing/clock.ts';
import type { RunProgress } from './run-progress.ts';

/**
 * While an approval waits, no event comes: the check run is refreshed now and then all the same,
 * so that its elapsed time and the waiting approval read as current (issue 33.18).
 */
export interface ApprovalHeartbeat {
  /** Schedules the next refresh when an approval waits and none is scheduled. */
  keepFresh(): void;
  /** Cancels the scheduled refresh, if any (for good once `stopped` says so). */
  stop(): void;
}

/**
 * The {@link ApprovalHeartbeat} of a run: every `refreshMs` while an approval waits, the progress
 * ticks to the clock's time and `refresh` is called; nothing once `stopped` answers true.
 */
export function approvalHeartbeat(options: {
  clock: Clock;
  progress: RunProgress;
  refreshMs: number;
  refresh: () => void;
  stopped: () => boolean;
}): ApprovalHeartbeat {
  const { clock, progress, refreshMs } = options;
  let heartbeat: unknown;
  const waiting = () => !options.stopped() && progress.pendingApprovals.length > 0;
  const beat = () => {
    heartbeat = undefined;
    if (!waiting()) return;
    progress.tick(clock.now());
    options.refresh();
    heartbeat = clock.setTimeout(beat, refreshMs);
  };
  return {
    keepFresh() {
      if (heartbeat === undefined && waiting()) heartbeat = clock.setTimeout(beat, refreshMs);
    },
    stop() {
      if (heartbeat !== undefined) clock.clearTimeout(heartbeat);
    },
  };
}

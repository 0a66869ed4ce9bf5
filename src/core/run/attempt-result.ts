import type { RunEndReason } from '../events/index.ts';

/** How one attempt ended; the run's end is the last attempt's. */
export interface AttemptResult {
  reason: RunEndReason;
  message?: string;
  exitCode?: number | null;
  signal?: string | null;
  sessionId?: string;
  output?: unknown;
}

/** A stop the core asked for, and the run-end reason it leads to. */
export interface StopRequest {
  reason: RunEndReason;
  shutdown: import('../adapter/index.ts').ShutdownReason;
  message: string;
}

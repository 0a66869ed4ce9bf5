import type { RunEndReason } from '../core/events/index.ts';

/** Exit codes of `agent-mux run`: 0 only when the run completed. */
export const exitCodes = {
  completed: 0,
  failed: 1,
  crashed: 1,
  budget_exceeded: 3,
  usage: 2,
  timeout: 124,
  inactivity: 124,
  aborted: 130,
} as const satisfies Record<RunEndReason | 'usage', number>;

export const exitCodeFor = (reason: RunEndReason): number => exitCodes[reason];

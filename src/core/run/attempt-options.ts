import type { LaunchContext } from '../adapter/index.ts';
import type { ApprovalChannel } from '../tools/approval-channel.ts';
import type { ToolHost } from '../tools/tool-host.ts';
import type { StopRequest } from './attempt-result.ts';
import type { RunEmitter } from './run-emitter.ts';

/** Pauses and resumes what an attempt runs (its process group), for a budget that waits to be raised. */
export interface PauseControl {
  /** Stops the agent where it is; false when it cannot be paused (it is gone, or the attempt is stopping). */
  pause(): boolean;
  /**
   * Lets a paused agent go on (a raised budget). A run stopped while paused needs no `resume`: the
   * attempt's stop asks the agent to stop first and continues it after (it shuts down, no step more).
   */
  resume(): void;
}

/** What one attempt of a run gets, whatever its launch (a process, a session). */
export interface AttemptOptions<L> {
  launch: L;
  ctx: LaunchContext;
  emitter: RunEmitter;
  /** How long a stop waits for the agent to go before it is forced. */
  graceMs: number;
  /** How long an agent that sent its terminal event may take to end by itself before it is stopped. */
  terminalGraceMs: number;
  tools?: ToolHost;
  approvals?: ApprovalChannel;
  /** Registers the function the run calls to stop this attempt. */
  onStopper: (stop: (request: StopRequest) => void) => void;
  /** Called on every output, for the inactivity timer. */
  onActivity: () => void;
  /** Sees the program's raw output before decoding (recording native streams). */
  onNativeOutput?: (stream: 'stdout' | 'stderr', chunk: Uint8Array | string) => void;
  /** Aborted when the run is aborted. */
  signal: AbortSignal;
}

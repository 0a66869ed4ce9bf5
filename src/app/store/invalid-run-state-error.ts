import { AgentMuxError } from '../../core/errors/agent-mux-error.ts';
import type { RunState } from './run-store.ts';

/** A write asked for a state the operation cannot set (`update` to a final state, `finish` to a non-final one). */
export class InvalidRunStateError extends AgentMuxError {
  readonly runId: string;
  readonly state: RunState;

  constructor(runId: string, state: RunState, allowed: readonly RunState[]) {
    super('invalid_run_state', `run ${runId}: state ${state} is not allowed here (allowed: ${allowed.join(', ')})`);
    this.name = 'InvalidRunStateError';
    this.runId = runId;
    this.state = state;
  }

  static override isInstance(error: unknown): error is InvalidRunStateError {
    return AgentMuxError.isInstance(error) && error.code === 'invalid_run_state';
  }
}

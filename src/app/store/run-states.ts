import { concludedState, type RunConclusion } from '../../github/report/run-lifecycle.ts';
import { FINAL_STATES, type RunState } from './run-store.ts';

/** States of a run that holds a lease (a worker is on it). */
export const IN_FLIGHT_STATES: readonly RunState[] = ['running', 'awaiting_approval'];

/** True for `succeeded`, `failed`, `cancelled`, `timed_out`. */
export function isFinalState(state: RunState): boolean {
  return FINAL_STATES.includes(state);
}

/** The conclusion and reason given to a queued run whose cancellation was requested before it started. */
export const CANCELLED_BEFORE_START = { conclusion: 'cancelled', reason: 'cancelled before it started' } as const;

/** The conclusion given to an expired run that `recover(…, 'fail')` concludes. */
export const RECOVERED_FAILURE_CONCLUSION = 'failure';

/** The stored state of a run that concluded so (the run lifecycle's mapping, typed as the store's). */
export function stateOf(conclusion: RunConclusion): RunState {
  return concludedState(conclusion);
}

import type { EventDraft } from '../../events/index.ts';
import type { StopRequest } from '../attempt-result.ts';
import type { StopCause } from './stop-cause.ts';

/**
 * The run's one stop switch. Every stop cause goes through `requestStop`: its error is emitted,
 * the first cause is kept as the run's end, and the current attempt (if any) is asked to stop. A
 * cause that fires between attempts stops the next one as soon as it registers.
 */
export class RunStopper {
  readonly #emit: (draft: EventDraft) => void;
  #pending: StopRequest | undefined;
  #attempt: ((request: StopRequest) => void) | undefined;

  constructor(emit: (draft: EventDraft) => void) {
    this.#emit = emit;
  }

  /** The first stop asked for, or undefined while the run may go on. */
  get pending(): StopRequest | undefined {
    return this.#pending;
  }

  readonly requestStop = (cause: StopCause): void => {
    if (cause.error) this.#emit({ type: 'error', ...cause.error, recoverable: false });
    const request: StopRequest = { reason: cause.reason, shutdown: cause.shutdown, message: cause.message };
    this.#pending ??= request;
    this.#attempt?.(request);
  };

  /** The running attempt's stop function (undefined once it is over); a pending stop reaches it at once. */
  attach(stop: ((request: StopRequest) => void) | undefined): void {
    this.#attempt = stop;
    if (stop && this.#pending) stop(this.#pending);
  }
}

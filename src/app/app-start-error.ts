import { codedError } from '../core/errors/coded-error.ts';

/**
 * The app gave up starting: a start-up step (reading the app with `GET /app`, opening the store)
 * kept failing for longer than `AGENT_MUX_START_TIMEOUT_SECONDS`. `reason` is the last failure.
 */
export class AppStartError extends codedError('AppStartError', 'app_start_failed') {
  /** What was being done, e.g. `GET /app`. */
  readonly step: string;
  /** Why the last attempt failed, as logged. */
  readonly reason: string;
  /** Attempts made. */
  readonly attempts: number;

  constructor(step: string, reason: string, attempts: number, options?: { cause?: unknown }) {
    const times = attempts === 1 ? 'once' : `${attempts} times`;
    super(`agent-mux could not start: ${step} failed ${times}; last: ${reason}`, options);
    this.step = step;
    this.reason = reason;
    this.attempts = attempts;
  }
}

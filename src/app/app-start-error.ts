import { AgentMuxError } from '../core/errors/agent-mux-error.ts';

/**
 * The app gave up starting: a start-up step (reading the app with `GET /app`, opening the store)
 * kept failing for longer than `AGENT_MUX_START_TIMEOUT_SECONDS`. `reason` is the last failure.
 */
export class AppStartError extends AgentMuxError {
  /** What was being done, e.g. `GET /app`. */
  readonly step: string;
  /** Why the last attempt failed, as logged. */
  readonly reason: string;
  /** Attempts made. */
  readonly attempts: number;

  constructor(step: string, reason: string, attempts: number, options?: { cause?: unknown }) {
    const times = attempts === 1 ? 'once' : `${attempts} times`;
    super('app_start_failed', `agent-mux could not start: ${step} failed ${times}; last: ${reason}`, options);
    this.name = 'AppStartError';
    this.step = step;
    this.reason = reason;
    this.attempts = attempts;
  }

  static override isInstance(error: unknown): error is AppStartError {
    return AgentMuxError.isInstance(error) && error.code === 'app_start_failed';
  }
}

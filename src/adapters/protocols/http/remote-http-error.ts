import { AgentMuxError } from '../../../core/errors/agent-mux-error.ts';

const marker = Symbol.for('agent-mux.remote-http-error');

/**
 * A ca-http-v1 call that did not succeed: the remote could not be reached (`status` undefined)
 * or it answered with an unexpected HTTP status.
 */
export class RemoteHttpError extends AgentMuxError {
  readonly [marker] = true;
  /** The HTTP status, or undefined when no answer came (refused, DNS, reset, TLS). */
  readonly status: number | undefined;
  /** The remote's `Retry-After`, in seconds, when it sent one. */
  readonly retryAfterSeconds: number | undefined;

  constructor(message: string, options: { status?: number; retryAfterSeconds?: number; cause?: unknown } = {}) {
    super(options.status === undefined ? 'remote_unavailable' : 'remote_http_error', message, { cause: options.cause });
    this.name = 'RemoteHttpError';
    this.status = options.status;
    this.retryAfterSeconds = options.retryAfterSeconds;
  }

  static override isInstance(error: unknown): error is RemoteHttpError {
    return typeof error === 'object' && error !== null && marker in error;
  }
}

import { AgentMuxError } from '../core/errors/index.ts';

/** A request body the remote server cannot read: too large or not JSON (answered with 400). */
export class RequestBodyError extends AgentMuxError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('remote_bad_request', message, options);
    this.name = 'RequestBodyError';
  }

  static override isInstance(error: unknown): error is RequestBodyError {
    return AgentMuxError.isInstance(error) && error.code === 'remote_bad_request';
  }
}

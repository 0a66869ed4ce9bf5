import { AgentMuxError } from './agent-mux-error.ts';

/** A fence's own network (slirp4netns and the loopback relays) could not be set up. */
export class FenceNetworkError extends AgentMuxError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('fence_network_failed', message, options);
    this.name = 'FenceNetworkError';
  }

  static override isInstance(error: unknown): error is FenceNetworkError {
    return AgentMuxError.isInstance(error) && error.code === 'fence_network_failed';
  }
}

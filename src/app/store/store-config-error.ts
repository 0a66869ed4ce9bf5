import { AgentMuxError } from '../../core/errors/agent-mux-error.ts';

/** The store's configuration cannot be used (an unsafe PostgreSQL schema name, an unsupported `DATABASE_URL`). */
export class StoreConfigError extends AgentMuxError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('store_config_invalid', message, options);
    this.name = 'StoreConfigError';
  }

  static override isInstance(error: unknown): error is StoreConfigError {
    return AgentMuxError.isInstance(error) && error.code === 'store_config_invalid';
  }
}

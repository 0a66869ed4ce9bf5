import { AgentMuxError } from '../../../core/errors/index.ts';

/** A run of an adapter whose `dispose()` was called: its long-lived program is gone for good. */
export class AdapterDisposedError extends AgentMuxError {
  readonly adapterId: string;

  constructor(adapterId: string) {
    super('adapter_disposed', `the adapter ${adapterId} was disposed`);
    this.name = 'AdapterDisposedError';
    this.adapterId = adapterId;
  }

  static override isInstance(error: unknown): error is AdapterDisposedError {
    return AgentMuxError.isInstance(error) && error.code === 'adapter_disposed';
  }
}

import { AgentMuxError } from './agent-mux-error.ts';
import { closestName } from './did-you-mean.ts';

/** No built-in or configured adapter has this id. */
export class AdapterNotFoundError extends AgentMuxError {
  readonly adapterId: string;

  constructor(adapterId: string, known: readonly string[]) {
    const suggestion = closestName(adapterId, known);
    super(
      'adapter_not_found',
      `unknown adapter "${adapterId}"${suggestion ? ` (did you mean ${suggestion}?)` : ''}; known adapters: ${known.join(', ')}`,
    );
    this.name = 'AdapterNotFoundError';
    this.adapterId = adapterId;
  }

  static override isInstance(error: unknown): error is AdapterNotFoundError {
    return AgentMuxError.isInstance(error) && error.code === 'adapter_not_found';
  }
}

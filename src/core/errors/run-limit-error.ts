import { AgentMuxError } from './agent-mux-error.ts';

/**
 * A run went past a limit its host sets (its disk use, say). Given as the reason of the run's abort
 * signal, it ends the run `budget_exceeded` (a failure with this message), not `aborted`.
 */
export class RunLimitError extends AgentMuxError {
  constructor(message: string) {
    super('run_limit_exceeded', message);
    this.name = 'RunLimitError';
  }

  static override isInstance(error: unknown): error is RunLimitError {
    return AgentMuxError.isInstance(error) && error.code === 'run_limit_exceeded';
  }
}

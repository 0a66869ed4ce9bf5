import { AgentMuxError } from '../core/errors/index.ts';

/** Wrong command-line words: exit code 2 with the message and the command's usage. */
export class UsageError extends AgentMuxError {
  constructor(message: string) {
    super('usage', message);
    this.name = 'UsageError';
  }

  static override isInstance(error: unknown): error is UsageError {
    return AgentMuxError.isInstance(error) && error.code === 'usage';
  }
}

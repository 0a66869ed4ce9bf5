import { AgentMuxError } from './agent-mux-error.ts';

/** The agent's program could not be started (not installed, not executable, bad cwd). */
export class SpawnError extends AgentMuxError {
  readonly command: string;

  constructor(command: string, message: string, options?: { cause?: unknown }) {
    super('spawn_failed', `cannot start ${command}: ${message}`, options);
    this.name = 'SpawnError';
    this.command = command;
  }

  static override isInstance(error: unknown): error is SpawnError {
    return AgentMuxError.isInstance(error) && error.code === 'spawn_failed';
  }
}

import { AgentMuxError } from '../../core/errors/agent-mux-error.ts';

/** A simulation could not be set up: the repository is not a git checkout, the payload names no repository, … */
export class SimulationSetupError extends AgentMuxError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('simulation_setup', message, options);
    this.name = 'SimulationSetupError';
  }

  static override isInstance(error: unknown): error is SimulationSetupError {
    return AgentMuxError.isInstance(error) && error.code === 'simulation_setup';
  }
}

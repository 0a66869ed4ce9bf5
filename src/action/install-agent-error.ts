import { AgentMuxError } from '../core/errors/agent-mux-error.ts';

/** An agent's program could not be made available on the runner (not on npm, npm failed, the binary did not run). */
export class AgentInstallError extends AgentMuxError {
  /** The program's command (`claude`, `hermes`, …). */
  readonly command: string;
  /** The npm package that was being installed, when there is one. */
  readonly npmPackage: string | undefined;
  /** The last lines npm (or the program) wrote to stderr, when it ran. */
  readonly stderrTail: string | undefined;

  constructor(
    command: string,
    message: string,
    options?: { cause?: unknown; npmPackage?: string | undefined; stderrTail?: string | undefined },
  ) {
    super('agent_install_failed', message, { cause: options?.cause });
    this.name = 'AgentInstallError';
    this.command = command;
    this.npmPackage = options?.npmPackage;
    this.stderrTail = options?.stderrTail;
  }

  static override isInstance(error: unknown): error is AgentInstallError {
    return AgentMuxError.isInstance(error) && error.code === 'agent_install_failed';
  }
}

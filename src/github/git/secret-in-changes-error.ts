import { AgentMuxError } from '../../core/errors/agent-mux-error.ts';

/**
 * A file the agent changed holds one of the run's secrets (the GitHub token, an API key), plain
 * or encoded: publishing it would hand the secret to everyone who can read the branch. Names the
 * files, never the secret.
 */
export class SecretInChangesError extends AgentMuxError {
  readonly paths: readonly string[];

  constructor(paths: readonly string[]) {
    super(
      'secret_in_changes',
      `a secret of this run was found in ${paths.map((path) => JSON.stringify(path)).join(', ')}; nothing was committed or pushed`,
    );
    this.name = 'SecretInChangesError';
    this.paths = paths;
  }

  static override isInstance(error: unknown): error is SecretInChangesError {
    return AgentMuxError.isInstance(error) && error.code === 'secret_in_changes';
  }
}

import { AgentMuxError } from '../../core/errors/agent-mux-error.ts';

/**
 * The pull request's head is not the commit the trigger saw: someone pushed in between. The run
 * must not go on with code nobody vetted.
 */
export class HeadMovedError extends AgentMuxError {
  readonly expectedSha: string;
  readonly actualSha: string;

  constructor(expectedSha: string, actualSha: string) {
    super('head_moved', `the pull request head moved: expected ${expectedSha}, found ${actualSha}`);
    this.name = 'HeadMovedError';
    this.expectedSha = expectedSha;
    this.actualSha = actualSha;
  }

  static override isInstance(error: unknown): error is HeadMovedError {
    return AgentMuxError.isInstance(error) && error.code === 'head_moved';
  }
}

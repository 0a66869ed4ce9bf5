import { AgentMuxError } from '../../core/errors/agent-mux-error.ts';

/**
 * The remote refused to update the branch: it moved on (non-fast-forward, "fetch first") or a rule
 * rejected it. agent-mux never retries such a push with force.
 */
export class PushRejectedError extends AgentMuxError {
  readonly branch: string;
  /** Git's reason, e.g. `fetch first`, `non-fast-forward`, `remote rejected: protected branch hook declined`. */
  readonly reason: string;

  constructor(branch: string, reason: string) {
    super('push_rejected', `push to branch "${branch}" was rejected (${reason}); it was not forced`);
    this.name = 'PushRejectedError';
    this.branch = branch;
    this.reason = reason;
  }

  static override isInstance(error: unknown): error is PushRejectedError {
    return AgentMuxError.isInstance(error) && error.code === 'push_rejected';
  }
}

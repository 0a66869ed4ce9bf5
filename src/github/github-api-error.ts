import { AgentMuxError } from '../core/errors/agent-mux-error.ts';

/** A GitHub REST request failed: names the operation and keeps GitHub's status and message. */
export class GitHubApiError extends AgentMuxError {
  readonly operation: string;
  /** The HTTP status, when GitHub answered. */
  readonly status: number | undefined;

  constructor(operation: string, status: number | undefined, message: string, options?: { cause?: unknown }) {
    super('github_api_failed', `${operation} failed${status === undefined ? '' : ` (${status})`}: ${message}`, options);
    this.name = 'GitHubApiError';
    this.operation = operation;
    this.status = status;
  }

  static override isInstance(error: unknown): error is GitHubApiError {
    return AgentMuxError.isInstance(error) && error.code === 'github_api_failed';
  }

  /** Wraps whatever a request threw (Octokit's RequestError carries `status`). */
  static from(operation: string, error: unknown): GitHubApiError {
    if (GitHubApiError.isInstance(error)) return error;
    const status = statusOf(error);
    const message = error instanceof Error ? error.message : String(error);
    return new GitHubApiError(operation, status, message, { cause: error });
  }
}

/** The HTTP status of an Octokit request error, if it has one. */
export function statusOf(error: unknown): number | undefined {
  if (typeof error !== 'object' || error === null || !('status' in error)) return undefined;
  const status = (error as { status: unknown }).status;
  return typeof status === 'number' ? status : undefined;
}

import { AgentMuxError } from '../../core/errors/agent-mux-error.ts';

/** `.github/agent-mux.yml` could not be read: GitHub failed other than with 404. Keeps the API error as `cause`. */
export class RepoConfigReadError extends AgentMuxError {
  /** `owner/repo`. */
  readonly repository: string;
  readonly path: string;
  /** The branch read from, when it was known. */
  readonly branch: string | undefined;

  constructor(repository: string, path: string, branch: string | undefined, options?: { cause?: unknown }) {
    const cause = options?.cause;
    const reason = cause instanceof Error ? `: ${cause.message}` : '';
    const where = branch === undefined ? repository : `${repository}@${branch}`;
    super('repo_config_unreadable', `could not read ${path} of ${where}${reason}`, options);
    this.name = 'RepoConfigReadError';
    this.repository = repository;
    this.path = path;
    this.branch = branch;
  }

  static override isInstance(error: unknown): error is RepoConfigReadError {
    return AgentMuxError.isInstance(error) && error.code === 'repo_config_unreadable';
  }
}

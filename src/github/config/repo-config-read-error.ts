import { codedError } from '../../core/errors/coded-error.ts';

/** `.github/agent-mux.yml` could not be read: GitHub failed other than with 404. Keeps the API error as `cause`. */
export class RepoConfigReadError extends codedError('RepoConfigReadError', 'repo_config_unreadable') {
  /** `owner/repo`. */
  readonly repository: string;
  readonly path: string;
  /** The branch read from, when it was known. */
  readonly branch: string | undefined;

  constructor(repository: string, path: string, branch: string | undefined, options?: { cause?: unknown }) {
    const cause = options?.cause;
    const reason = cause instanceof Error ? `: ${cause.message}` : '';
    const where = branch === undefined ? repository : `${repository}@${branch}`;
    super(`could not read ${path} of ${where}${reason}`, options);
    this.repository = repository;
    this.path = path;
    this.branch = branch;
  }
}

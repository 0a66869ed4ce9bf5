import { AgentMuxError } from '../../core/errors/agent-mux-error.ts';

/**
 * The repository's `.git` is no longer the one `prepareWorkspace` saw (replaced by a file, a
 * symbolic link or another directory, or missing): agent-mux's git refuses to run in it.
 */
export class GitDirTamperedError extends AgentMuxError {
  readonly root: string;

  constructor(root: string, detail: string) {
    super('git_dir_tampered', `refusing to run git in ${root}: ${detail}`);
    this.name = 'GitDirTamperedError';
    this.root = root;
  }

  static override isInstance(error: unknown): error is GitDirTamperedError {
    return AgentMuxError.isInstance(error) && error.code === 'git_dir_tampered';
  }
}

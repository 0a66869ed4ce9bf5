import { codedError } from '../../core/errors/coded-error.ts';

/** A `git` command failed (non-zero exit, or git could not be started). Secrets are already redacted. */
export class GitError extends codedError('GitError', 'git_failed') {
  /** The git subcommand (`fetch`, `push`, …), or `git` when none was found in the arguments. */
  readonly subcommand: string;
  /** The exit code; undefined when git could not be started or was killed by a signal. */
  readonly exitCode: number | undefined;
  /** The last lines of stderr, with the token and its base64 form redacted. */
  readonly stderr: string;

  constructor(subcommand: string, exitCode: number | undefined, stderr: string, options?: { cause?: unknown }) {
    const detail = stderr.trim() === '' ? '' : `: ${stderr.trim()}`;
    const status = exitCode === undefined ? 'failed' : `exited with code ${exitCode}`;
    super(`git ${subcommand} ${status}${detail}`, options);
    this.subcommand = subcommand;
    this.exitCode = exitCode;
    this.stderr = stderr;
  }
}

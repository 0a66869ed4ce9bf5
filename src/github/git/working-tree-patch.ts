import { fileDiff } from './file-diff.ts';
import { runGit } from './git.ts';
import { openRepository } from './open-repository.ts';

/** One file's change in the working tree against `HEAD`, for `suggestionsFromDiff`. */
export interface WorkingTreePatch {
  /** `git diff --unified=0 HEAD` of the file (no hunks for a binary file). */
  patch: string;
  /** The file's lines at `HEAD`. */
  headLines: string[];
}

/**
 * The working tree's change of one tracked file against `HEAD`, with no context lines, and the
 * file's lines at `HEAD`. Opens the checkout with `openRepository` first (a replaced `.git` refused,
 * the configuration sanitized); no external diff or text conversion runs, whatever the
 * repository's attributes say. `path` is relative to the top of the repository, taken literally.
 */
export async function workingTreePatch(cwd: string, path: string): Promise<WorkingTreePatch> {
  const { root } = await openRepository(cwd);
  const patch = await fileDiff(root, { from: 'HEAD', path, context: 0 });
  const head = await runGit(['cat-file', 'blob', `HEAD:${path}`], { cwd: root });
  return { patch, headLines: head.split('\n') };
}

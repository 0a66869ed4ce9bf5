import { type DiffHunk, parseDiffHunks } from './diff-hunks.ts';
import { fileDiff } from './file-diff.ts';
import { openRepository } from './open-repository.ts';

/**
 * The hunks (without context) by which `commit` changes `path` against its first parent, read with
 * agent-mux's hardened git after `openRepository` (a replaced `.git` refused, its config sanitized).
 * Empty when the commit does not change the file.
 */
export async function changedHunks(cwd: string, commit: string, path: string): Promise<DiffHunk[]> {
  const { root } = await openRepository(cwd);
  return parseDiffHunks(await fileDiff(root, { from: `${commit}^`, to: commit, path, context: 0 }));
}

import { runGit } from './git.ts';
import { openRepository } from './open-repository.ts';

/** One hunk of a commit's change of a file: the lines before (`old…`) and after (`new…`). */
export interface ChangedHunk {
  /** First old line (the line before, when the hunk only adds). */
  oldStart: number;
  oldLines: number;
  /** First new line (the line before, when the hunk only deletes). */
  newStart: number;
  newLines: number;
}

const header = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/gm;

/**
 * The hunks (without context) by which `commit` changes `path` against its first parent, read with
 * agent-mux's hardened git after `openRepository` (a replaced `.git` refused, its config sanitized).
 * Empty when the commit does not change the file.
 */
export async function changedHunks(cwd: string, commit: string, path: string): Promise<ChangedHunk[]> {
  const { root } = await openRepository(cwd);
  const patch = await runGit(
    [
      'diff',
      '--no-ext-diff',
      '--no-textconv',
      '--no-color',
      '--no-renames',
      '--unified=0',
      `${commit}^`,
      commit,
      '--',
      `:(literal)${path}`,
    ],
    { cwd: root },
  );
  return [...patch.matchAll(header)].map((m) => ({
    oldStart: Number(m[1]),
    oldLines: m[2] === undefined ? 1 : Number(m[2]),
    newStart: Number(m[3]),
    newLines: m[4] === undefined ? 1 : Number(m[4]),
  }));
}

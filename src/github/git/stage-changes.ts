import { runGit } from './git.ts';

/**
 * Stages every change in the working tree (`git add -A`: new files except ignored ones, edits,
 * deletions) and then puts the `ignore` paths back to their `HEAD` state in the index, so they
 * are left out of the next commit whatever the working tree holds. Paths are literal (no pathspec
 * magic) and relative to the top of the repository. `env` may name another index (`GIT_INDEX_FILE`).
 */
export async function stageChanges(
  root: string,
  ignore: readonly string[],
  env?: Record<string, string>,
): Promise<void> {
  await runGit(['add', '--all'], { cwd: root, env });
  if (ignore.length === 0) return;
  await runGit(['--literal-pathspecs', 'reset', '--quiet', '--pathspec-from-file=-', '--pathspec-file-nul'], {
    cwd: root,
    env,
    input: `${ignore.join('\0')}\0`,
  });
}

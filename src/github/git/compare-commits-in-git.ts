import type { CommitComparison } from '../github-api.ts';
import { runGit } from './git.ts';

/** Whether `ancestor` is `descendant` or one of its ancestors. */
async function isAncestor(gitDir: string, ancestor: string, descendant: string): Promise<boolean> {
  return runGit(['merge-base', '--is-ancestor', ancestor, descendant], { cwd: gitDir }).then(
    () => true,
    () => false,
  );
}

/** One file changed between two commits, as GitHub's `diff-entry` names it (renames detected). */
export interface ChangedFile {
  filename: string;
  status: 'added' | 'removed' | 'modified' | 'renamed';
  /** A renamed file's old path. */
  previousFilename?: string;
}

/** The files changed from `from` to `to` (`git diff -M --name-status`), in git's order. */
export async function changedFiles(gitDir: string, from: string, to: string): Promise<ChangedFile[]> {
  const listed = (await runGit(['diff', '-M', '--name-status', '-z', from, to, '--'], { cwd: gitDir })).split('\0');
  const files: ChangedFile[] = [];
  for (let index = 0; index < listed.length; ) {
    const code = listed[index] ?? '';
    if (code === '') break;
    const renamed = code.startsWith('R') || code.startsWith('C');
    const filename = listed[index + (renamed ? 2 : 1)] ?? '';
    if (renamed) files.push({ filename, status: 'renamed', previousFilename: listed[index + 1] ?? '' });
    else files.push({ filename, status: code === 'A' ? 'added' : code === 'D' ? 'removed' : 'modified' });
    index += renamed ? 3 : 2;
  }
  return files;
}

/**
 * How `head` relates to `base` and the files changed from their merge base to `head`, as GitHub's
 * "compare two commits" says it (a renamed file by both its paths). For the stand-ins of GitHub
 * that keep a real bare repository; `gitDir` is that repository. Throws when either commit is not
 * in it.
 */
export async function compareCommitsInGit(gitDir: string, base: string, head: string): Promise<CommitComparison> {
  const git = (args: string[]) => runGit(args, { cwd: gitDir });
  const [baseSha, headSha] = [
    await git(['rev-parse', '--verify', `${base}^{commit}`]),
    await git(['rev-parse', '--verify', `${head}^{commit}`]),
  ];
  const status =
    baseSha === headSha
      ? 'identical'
      : (await isAncestor(gitDir, baseSha, headSha))
        ? 'ahead'
        : (await isAncestor(gitDir, headSha, baseSha))
          ? 'behind'
          : 'diverged';
  const mergeBase = await git(['merge-base', baseSha, headSha]);
  const files = (await changedFiles(gitDir, mergeBase, headSha)).flatMap((f) =>
    f.previousFilename === undefined ? [f.filename] : [f.filename, f.previousFilename],
  );
  return { status, files };
}

import type { CommitComparison } from '../github-api.ts';
import { runGit } from './git.ts';

/** Whether `ancestor` is `descendant` or one of its ancestors. */
async function isAncestor(gitDir: string, ancestor: string, descendant: string): Promise<boolean> {
  return runGit(['merge-base', '--is-ancestor', ancestor, descendant], { cwd: gitDir }).then(
    () => true,
    () => false,
  );
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
  const listed = (await git(['diff', '-M', '--name-status', '-z', mergeBase, headSha, '--'])).split('\0');
  const files: string[] = [];
  for (let index = 0; index < listed.length; ) {
    const code = listed[index] ?? '';
    if (code === '') break;
    const paths = code.startsWith('R') || code.startsWith('C') ? 2 : 1;
    files.push(...listed.slice(index + 1, index + 1 + paths).reverse());
    index += 1 + paths;
  }
  return { status, files };
}

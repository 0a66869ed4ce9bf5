import { runGit } from '../git/git.ts';
import { openRepository } from '../git/open-repository.ts';
import type { GitHubApi, RepoRef } from '../github-api.ts';

/** How many names `unclaimedBranch` tries (`base`, `base-2`, … `base-20`) before it gives `base` back. */
const MAX_NAMES = 20;

/**
 * The branch a run that is on no pull request pushes to: `base` when the repository has no such
 * branch or its tip is in the workspace's history (the run continues it), else the first of
 * `base-2`, `base-3`, … that is free or continued. A fresh conversation on an issue that had one
 * (`@agent new:`) gets its own branch and pull request instead of a push the remote would refuse
 * (pushes are never forced). After `MAX_NAMES` taken names it returns `base`, and the push says why.
 */
export async function unclaimedBranch(input: {
  api: Pick<GitHubApi, 'getBranchSha'>;
  repo: RepoRef;
  base: string;
  /** The workspace: its `HEAD` is what the run's commit goes on top of. */
  cwd: string;
}): Promise<string> {
  const { root } = await openRepository(input.cwd);
  for (const name of branchNames(input.base)) {
    const tip = await input.api.getBranchSha(input.repo, name);
    if (tip === undefined || (await inHistory(root, tip))) return name;
  }
  return input.base;
}

/** The names `unclaimedBranch` tries, in order: `base`, `base-2`, … `base-20`. */
export function branchNames(base: string): string[] {
  return Array.from({ length: MAX_NAMES }, (_, i) => (i === 0 ? base : `${base}-${i + 1}`));
}

/** True when `sha` is `HEAD` or one of its ancestors (false for a commit the workspace does not have). */
async function inHistory(root: string, sha: string): Promise<boolean> {
  try {
    await runGit(['merge-base', '--is-ancestor', sha, 'HEAD'], { cwd: root });
    return true;
  } catch {
    return false;
  }
}

import { errorText } from '../../core/errors/error-text.ts';
import { findRunCommit, type RunCommit } from '../git/find-run-commit.ts';
import type { GitHubApi, PullInfo, RepoRef } from '../github-api.ts';
import { issueBranchOf } from './publish-result.ts';
import type { RunJob } from './run-job.ts';
import { branchNames } from './unclaimed-branch.ts';

/**
 * The commit an earlier attempt of run `runId` pushed, when it is still the tip of the branch that
 * attempt published to: the pull request's branch, the conversation's branch, or for an issue the
 * first of `<prefix><issue>-<slug>`, `…-2`, … that exists (each name `unclaimedBranch` would have
 * tried, up to the first that does not exist). Never for a pull request from a fork (nothing of the
 * run's is pushed there). Undefined when there is none, or when the branches cannot be read (logged):
 * then the agent runs again, as it would have without this check.
 */
export async function earlierAttemptCommit(input: {
  api: Pick<GitHubApi, 'getBranchSha'>;
  repo: RepoRef;
  job: RunJob;
  pull: PullInfo | undefined;
  branch: string | undefined;
  cwd: string;
  git: { remote?: string; token?: string };
  runId: string;
  log: (line: string) => void;
}): Promise<RunCommit | undefined> {
  if (input.pull?.fromFork) return undefined;
  try {
    const branches = input.pull
      ? [input.pull.headRef]
      : input.branch !== undefined
        ? [input.branch]
        : await existingNames(input.api, input.repo, issueBranchOf(input.job));
    if (branches.length === 0) return undefined;
    return await findRunCommit({
      cwd: input.cwd,
      ...(input.git.remote === undefined ? {} : { remote: input.git.remote }),
      ...(input.git.token === undefined ? {} : { token: input.git.token }),
      runId: input.runId,
      branches,
    });
  } catch (error) {
    input.log(`could not look for an earlier attempt's commit, so the agent runs again: ${errorText(error)}`);
    return undefined;
  }
}

/** The names of `branchNames(base)` that exist, up to the first that does not. */
async function existingNames(api: Pick<GitHubApi, 'getBranchSha'>, repo: RepoRef, base: string): Promise<string[]> {
  const names: string[] = [];
  for (const name of branchNames(base)) {
    if ((await api.getBranchSha(repo, name)) === undefined) break;
    names.push(name);
  }
  return names;
}

import { branchName } from '../git/branch-name.ts';
import type { ChangedFile } from '../git/collect-changes.ts';
import { collectChanges } from '../git/collect-changes.ts';
import { runEndTrailer, runTrailer } from '../git/find-run-commit.ts';
import { publishChanges } from '../git/publish-changes.ts';
import type { GitHubApi, PullInfo } from '../github-api.ts';
import { runTitle } from '../github-names.ts';
import type { ForkDelivery } from '../report/finish-info.ts';
import { deliverToFork } from './deliver-to-fork.ts';
import { openPullRequest } from './open-pull-request.ts';
import type { RunJob } from './run-job.ts';
import { unclaimedBranch } from './unclaimed-branch.ts';

export interface PublishedResult {
  branch?: string;
  pullRequestUrl?: string;
  files: readonly ChangedFile[];
  /** One line for the log and the tracking comment. */
  note: string;
  /** For a pull request from a fork: where the change went, for the tracking comment. */
  fork?: ForkDelivery;
}

/**
 * Puts a successful run's changes where they belong: the PR's own branch for a pull request of
 * this repository, a new `<prefix><issue>-<slug>` branch (and a pull request) for an issue (`-2`, `-3`, …
 * when that name holds another conversation's commits: `unclaimedBranch`), and for
 * a pull request from a fork suggestions on it or a branch and pull request in this repository
 * (`deliverToFork`, `forks.delivery`). Never force-pushes; never pushes to a fork. Throws
 * `SecretInChangesError` (naming the files) when a change holds the token or one of `secrets`.
 */
export async function publishResult(input: {
  api: Pick<GitHubApi, 'findOpenPull' | 'createPull' | 'listPullFiles' | 'createReview' | 'getBranchSha'>;
  job: RunJob;
  pull: PullInfo | undefined;
  cwd: string;
  git: { remote?: string; token?: string; author: { name: string; email: string } };
  ignore: readonly string[];
  /** The run's secrets besides `git.token`: a change holding one is not published (`SecretInChangesError`). */
  secrets?: Iterable<string | undefined>;
  /** The branch the workspace is on (a conversation's, without a pull request): the commit goes on top of it. */
  branch?: string;
  /** The run's id: the commit carries it as its `Agent-Mux-Run` trailer (see `findRunCommit`). */
  runId?: string;
  /** Called once the commit is pushed, before the pull request is looked for or opened. */
  afterPush?: () => void;
  /**
   * The run did not finish (its budget was spent) and this is its work so far: a pull request it
   * opens is a draft that says so and links the issue without closing it.
   */
  unfinished?: string;
}): Promise<PublishedResult> {
  const { api, job, pull, git } = input;
  const files = await collectChanges(input.cwd, { ignore: [...input.ignore] });
  if (files.length === 0) return { files, note: 'the agent changed no files; nothing to commit' };

  const message = commitMessage(job, input.runId, input.unfinished !== undefined);
  if (pull?.fromFork) {
    return deliverToFork({
      api,
      job,
      pull,
      files,
      cwd: input.cwd,
      git,
      ignore: input.ignore,
      secrets: input.secrets,
      message,
    });
  }
  const branch = pull
    ? pull.headRef
    : (input.branch ?? (await unclaimedBranch({ api, repo: job.repo, base: issueBranchOf(job), cwd: input.cwd })));

  const pushed = await publishChanges({
    cwd: input.cwd,
    remote: git.remote,
    token: git.token,
    branch,
    message,
    author: git.author,
    ignore: [...input.ignore],
    secrets: input.secrets,
  });
  if (pushed.kind === 'no_changes') return { files: [], note: 'the agent changed no files; nothing to commit' };
  input.afterPush?.();
  return pullRequestFor({
    api,
    job,
    pull,
    branch,
    commitSha: pushed.commitSha,
    files: pushed.files,
    ...(input.unfinished === undefined ? {} : { unfinished: input.unfinished }),
  });
}

/** The branch name of a run on an issue before `unclaimedBranch` makes it free: `<prefix><issue>-<slug>`. */
export function issueBranchOf(job: RunJob): string {
  return branchName(job.config.git.branchPrefix, job.number ?? 0, job.title || job.instruction);
}

/**
 * Where a commit pushed to `branch` is seen: the pull request it is on (`pull`), the branch alone
 * (`git.pullRequests: false`), or the open pull request of the branch, opened when there is none.
 */
export async function pullRequestFor(input: {
  api: Pick<GitHubApi, 'findOpenPull' | 'createPull'>;
  job: RunJob;
  pull: PullInfo | undefined;
  branch: string;
  commitSha: string;
  files: readonly ChangedFile[];
  /** Why the run's work is unfinished: the pull request is a draft that says so and closes nothing. */
  unfinished?: string;
}): Promise<PublishedResult> {
  const { api, job, pull, branch, files } = input;
  const settings = job.config.git;
  const sha = input.commitSha.slice(0, 7);
  // A turn on a pull request (a follow-up in the PR the first turn opened): its commit is on that PR.
  if (pull) {
    return {
      branch,
      pullRequestUrl: pull.htmlUrl,
      files,
      note: `pushed ${sha} to ${branch} (pull request ${pull.htmlUrl})`,
    };
  }
  if (!settings.pullRequests) return { branch, files, note: `pushed ${sha} to ${branch}` };

  const pr = await openPullRequest(api, job.repo, {
    title: runTitle(job.title || job.instruction),
    head: branch,
    base: job.defaultBranch,
    draft: settings.draft || input.unfinished !== undefined,
    body: [
      job.number === undefined
        ? ''
        : settings.linkIssue && input.unfinished === undefined
          ? `Closes #${job.number}.`
          : `From #${job.number}.`,
      '',
      ...(input.unfinished === undefined ? [] : [`⚠️ Unfinished: ${input.unfinished}.`, '']),
      `Made by agent-mux (agent **${job.agentName}**) at the request of @${job.actor.login}.`,
      '',
      `${files.length} file${files.length === 1 ? '' : 's'} changed.`,
    ].join('\n'),
  });
  return { branch, pullRequestUrl: pr.htmlUrl, files, note: `pushed ${sha} to ${branch}; pull request ${pr.htmlUrl}` };
}

/**
 * The run's commit message: its title, who asked, and the trailers a retry finds it by (`Agent-Mux-Run`)
 * and, for work a spent budget left unfinished, how it ended (`Agent-Mux-Run-End`), so that a retry
 * that publishes it concludes as the run did.
 */
export function commitMessage(job: RunJob, runId: string | undefined, unfinished = false): string {
  const requested = `Requested by @${job.actor.login}${job.number === undefined ? '' : ` in #${job.number}`} (agent: ${job.agentName}).`;
  const trailers =
    runId === undefined ? [] : [runTrailer(runId), ...(unfinished ? [runEndTrailer('budget_exceeded')] : [])];
  return `${runTitle(job.title || job.instruction)}\n\n${requested}${trailers.length === 0 ? '' : `\n\n${trailers.join('\n')}`}`;
}

import { branchName } from '../git/branch-name.ts';
import type { ChangedFile } from '../git/collect-changes.ts';
import { collectChanges } from '../git/collect-changes.ts';
import { publishChanges } from '../git/publish-changes.ts';
import type { GitHubApi, PullInfo } from '../github-api.ts';
import type { ForkDelivery } from '../report/finish-info.ts';
import { deliverToFork } from './deliver-to-fork.ts';
import { pullRequestRefused } from './pull-request-refused.ts';
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
}): Promise<PublishedResult> {
  const { api, job, pull, git } = input;
  const settings = job.config.git;
  const files = await collectChanges(input.cwd, { ignore: [...input.ignore] });
  if (files.length === 0) return { files, note: 'the agent changed no files; nothing to commit' };

  const message = commitMessage(job);
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
    : (input.branch ??
      (await unclaimedBranch({
        api,
        repo: job.repo,
        base: branchName(settings.branchPrefix, job.number ?? 0, job.title || job.instruction),
        cwd: input.cwd,
      })));

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
  // A turn on a pull request (a follow-up in the PR the first turn opened): its commit is on that PR.
  if (pull) {
    return {
      branch,
      pullRequestUrl: pull.htmlUrl,
      files: pushed.files,
      note: `pushed ${pushed.commitSha.slice(0, 7)} to ${branch} (pull request ${pull.htmlUrl})`,
    };
  }
  if (!settings.pullRequests) {
    return { branch, files: pushed.files, note: `pushed ${pushed.commitSha.slice(0, 7)} to ${branch}` };
  }

  const existing = await api.findOpenPull(job.repo, job.repo.owner, branch);
  const pr =
    existing ??
    (await api
      .createPull(job.repo, {
        title: commitTitle(job),
        head: branch,
        base: job.defaultBranch,
        draft: settings.draft,
        body: [
          job.number === undefined ? '' : settings.linkIssue ? `Closes #${job.number}.` : `From #${job.number}.`,
          '',
          `Made by agent-mux (agent **${job.agentName}**) at the request of @${job.actor.login}.`,
          '',
          `${pushed.files.length} file${pushed.files.length === 1 ? '' : 's'} changed.`,
        ].join('\n'),
      })
      .catch((error: unknown) => {
        throw pullRequestRefused(error, branch);
      }));
  return {
    branch,
    pullRequestUrl: pr.htmlUrl,
    files: pushed.files,
    note: `pushed ${pushed.commitSha.slice(0, 7)} to ${branch}; pull request ${pr.htmlUrl}`,
  };
}

function commitMessage(job: RunJob): string {
  return `${commitTitle(job)}\n\nRequested by @${job.actor.login}${job.number === undefined ? '' : ` in #${job.number}`} (agent: ${job.agentName}).`;
}

function commitTitle(job: RunJob): string {
  const title = (job.title || job.instruction).split('\n')[0]?.trim() ?? '';
  const short = title.length > 60 ? `${title.slice(0, 57)}…` : title;
  return `agent-mux: ${short || 'changes'}`;
}

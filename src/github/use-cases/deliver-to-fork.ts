import { branchName } from '../git/branch-name.ts';
import type { ChangedFile } from '../git/collect-changes.ts';
import { findSecretsInChanges } from '../git/find-secrets-in-changes.ts';
import { openRepository } from '../git/open-repository.ts';
import { publishChanges } from '../git/publish-changes.ts';
import { SecretInChangesError } from '../git/secret-in-changes-error.ts';
import { workingTreePatch } from '../git/working-tree-patch.ts';
import type { GitHubApi, PullInfo } from '../github-api.ts';
import { forkPullRequestTitle } from '../github-names.ts';
import type { ForkDelivery } from '../report/finish-info.ts';
import { openPullRequest } from './open-pull-request.ts';
import type { RunJob } from './run-job.ts';
import { type SuggestedFileChange, type SuggestionPlan, suggestionsFromDiff } from './suggestions-from-diff.ts';
import { unclaimedBranch } from './unclaimed-branch.ts';

/** With `forks.delivery: auto`, a change is suggested only when it has at most this many hunks… */
export const AUTO_MAX_SUGGESTIONS = 10;
/** …and touches at most this many lines (added plus replaced or deleted). */
export const AUTO_MAX_CHANGED_LINES = 40;

/** Where a fork pull request's change went. */
export interface ForkDelivered {
  files: readonly ChangedFile[];
  branch?: string;
  pullRequestUrl?: string;
  fork: ForkDelivery;
  note: string;
}

/**
 * Delivers a run's change on a pull request from a fork with the base repository's token alone,
 * never pushing to the fork: as a `COMMENT` review on the fork pull request whose comments are
 * suggestion blocks (when `forks.delivery` is `suggestions`, or `auto` and the change is small,
 * and every hunk lies on lines the pull request's diff shows), else as a branch
 * `<branchPrefix><number>-<slug>` in the base repository on top of the fork's head, with a pull
 * request against the fork pull request's base branch. Throws `SecretInChangesError` when a change
 * holds one of the run's secrets (before anything is suggested or pushed).
 */
export async function deliverToFork(input: {
  api: Pick<GitHubApi, 'findOpenPull' | 'createPull' | 'listPullFiles' | 'createReview' | 'getBranchSha'>;
  job: RunJob;
  pull: PullInfo;
  files: readonly ChangedFile[];
  cwd: string;
  git: { remote?: string; token?: string; author: { name: string; email: string } };
  ignore: readonly string[];
  secrets?: Iterable<string | undefined>;
  /** The commit message of the pull-request delivery. */
  message: string;
}): Promise<ForkDelivered> {
  const { api, job, pull, files } = input;
  const mode = job.config.forks.delivery;
  let fallback = '';
  if (mode !== 'pull-request') {
    const { root } = await openRepository(input.cwd);
    const leaking = await findSecretsInChanges(root, files, [input.git.token, ...(input.secrets ?? [])]);
    if (leaking.length > 0) throw new SecretInChangesError(leaking);
    const plan = await planSuggestions(api, job, pull, files, root);
    const small =
      plan.fits && plan.suggestions.length <= AUTO_MAX_SUGGESTIONS && plan.changedLines <= AUTO_MAX_CHANGED_LINES;
    if (plan.fits && (mode === 'suggestions' || small)) {
      const count = plan.suggestions.length;
      const review = await api.createReview(job.repo, pull.number, {
        commitId: pull.headSha,
        body: [
          `agent-mux (agent **${job.agentName}**, at the request of @${job.actor.login}) suggests ${count} change${count === 1 ? '' : 's'} to ${files.length} file${files.length === 1 ? '' : 's'}.`,
          '',
          'Apply them in *Files changed*: *Add suggestion to batch* on each, then *Commit suggestions*.',
        ].join('\n'),
        comments: plan.suggestions,
      });
      return {
        files,
        fork: { kind: 'suggestions', reviewId: review.id, reviewUrl: review.htmlUrl, count },
        note: `${count} suggestion(s) in review ${review.htmlUrl} (the pull request comes from a fork: nothing pushed to it)`,
      };
    }
    fallback = plan.fits
      ? ` (too large for suggestions: ${plan.suggestions.length} hunk(s), ${plan.changedLines} line(s))`
      : ` (not as suggestions: ${plan.reason})`;
  }

  // A later request on the same pull request starts again from the fork's head: a delivery branch an
  // earlier one made is not in its history, so this one gets a branch (and pull request) of its own.
  const branch = await unclaimedBranch({
    api,
    repo: job.repo,
    base: branchName(job.config.git.branchPrefix, pull.number, job.title || job.instruction),
    cwd: input.cwd,
  });
  const pushed = await publishChanges({
    cwd: input.cwd,
    remote: input.git.remote,
    token: input.git.token,
    branch,
    message: input.message,
    author: input.git.author,
    ignore: [...input.ignore],
    secrets: input.secrets,
  });
  if (pushed.kind === 'no_changes') throw new Error('the changes disappeared before they could be committed');
  const pushedNote = `pushed ${pushed.commitSha.slice(0, 7)} to ${branch} in this repository (the pull request comes from a fork: nothing pushed to it)`;
  if (!job.config.git.pullRequests) {
    return {
      files: pushed.files,
      branch,
      fork: { kind: 'branch', branch, cloneUrl: cloneUrlOf(pull) },
      note: `${pushedNote}${fallback}`,
    };
  }
  const head = pull.headRepoFullName === undefined ? `#${pull.number}` : `${pull.headRepoFullName}:${pull.headRef}`;
  const pr = await openPullRequest(api, job.repo, {
    title: forkPullRequestTitle(pull.number),
    head: branch,
    base: pull.baseRef,
    draft: job.config.git.draft,
    body: [
      `For #${pull.number}, which comes from a fork (\`${head}\`): agent-mux cannot push there, so the change is here.`,
      '',
      `This branch is #${pull.number}'s head plus the fix. Its author can take the fix with \`git pull ${cloneUrlOf(pull)} ${branch}\`; or merge this pull request in place of #${pull.number}.`,
      '',
      `Made by agent-mux (agent **${job.agentName}**) at the request of @${job.actor.login}; ${pushed.files.length} file${pushed.files.length === 1 ? '' : 's'} changed.`,
    ].join('\n'),
  });
  return {
    files: pushed.files,
    branch,
    pullRequestUrl: pr.htmlUrl,
    fork: { kind: 'pull_request', number: pr.number, url: pr.htmlUrl, branch, cloneUrl: cloneUrlOf(pull) },
    note: `${pushedNote}; pull request ${pr.htmlUrl}${fallback}`,
  };
}

async function planSuggestions(
  api: Pick<GitHubApi, 'listPullFiles'>,
  job: RunJob,
  pull: PullInfo,
  files: readonly ChangedFile[],
  root: string,
): Promise<SuggestionPlan> {
  const other = files.find((f) => f.status !== 'modified');
  if (other !== undefined) return { fits: false, reason: `${other.path} is ${other.status}` };
  const changes: SuggestedFileChange[] = [];
  for (const file of files) {
    const { patch, headLines } = await workingTreePatch(root, file.path);
    changes.push({ path: file.path, status: file.status, patch, headLines });
  }
  const pullFiles = await api.listPullFiles(job.repo, pull.number);
  return suggestionsFromDiff(changes, pullFiles);
}

/** The base repository's clone URL, from the pull request's page (`…/o/r/pull/12` → `…/o/r.git`). */
function cloneUrlOf(pull: PullInfo): string {
  return `${pull.htmlUrl.replace(/\/pull\/\d+\/?$/, '')}.git`;
}

import { compareCommitsInGit } from '../github/git/compare-commits-in-git.ts';
import { pullFilesFromGit } from '../github/git/pull-files-from-git.ts';
import type { GitHubApi, PullInfo, RepoRef } from '../github/github-api.ts';
import type { PullMethods } from '../github/github-api-groups.ts';
import { fail, type MemoryGitHubContext } from './memory-github-context.ts';

/** The in-memory GitHub's pull-request methods: finding, opening, asking for reviews, listing the files, comparing commits. */
export function memoryPullMethods(ctx: MemoryGitHubContext): PullMethods {
  const { options, state, git } = ctx;
  return {
    async getPull(ref, number) {
      const { issue, pull } = ctx.pullOf('GET /repos/{owner}/{repo}/pulls/{pull_number}', ref, number);
      return ctx.pullInfo(issue, pull);
    },

    async findOpenPull(ref, headOwner, headBranch) {
      ctx.checkRepo('GET /repos/{owner}/{repo}/pulls', ref);
      const found = state
        .pulls()
        .reverse()
        .find(
          (p) =>
            p.state === 'open' &&
            `${p.pull.headOwner}:${p.pull.headRef}`.toLowerCase() === `${headOwner}:${headBranch}`.toLowerCase(),
        );
      return found === undefined ? undefined : ctx.pullInfo(found, found.pull);
    },

    createPull: (ref, input) => openPull(ctx, ref, input),

    async requestReviewers(ref, number, reviewers) {
      const operation = 'POST /repos/{owner}/{repo}/pulls/{pull_number}/requested_reviewers';
      const { issue, pull } = ctx.pullOf(operation, ref, number);
      if (reviewers.users.some((u) => u.toLowerCase() === issue.user.login.toLowerCase())) {
        fail(operation, 422, 'Review cannot be requested from pull request author.');
      }
      const strangers = reviewers.users.filter((u) => state.roleOf(u) === 'none');
      const unknownTeams = reviewers.teams.filter((t) => !state.teams.has(options.repo.owner, t));
      if (strangers.length + unknownTeams.length > 0) {
        fail(
          operation,
          422,
          `Reviews may only be requested from collaborators: ${[...strangers, ...unknownTeams].join(', ')}`,
        );
      }
      state.requestReviews(pull, reviewers);
    },

    async compareCommits(ref, base, head) {
      const operation = 'GET /repos/{owner}/{repo}/compare/{basehead}';
      ctx.checkRepo(operation, ref);
      if ((await git.commitOf(base)) === undefined || (await git.commitOf(head)) === undefined) {
        fail(operation, 404, 'Not Found');
      }
      return compareCommitsInGit(options.bareRepo, base, head);
    },

    async listPullFiles(ref, number) {
      const { issue, pull } = ctx.pullOf('GET /repos/{owner}/{repo}/pulls/{pull_number}/files', ref, number);
      const { headSha, baseSha } = await ctx.pullInfo(issue, pull);
      const files = await pullFilesFromGit(options.bareRepo, baseSha, headSha);
      return files.map((f) => ({ path: f.filename, status: f.status, patch: f.patch }));
    },
  };
}

/**
 * Opens a pull request as GitHub does: the base must be a branch, and so must the head of this
 * repository (a fork's is taken on trust); one open pull request per head.
 */
async function openPull(
  ctx: MemoryGitHubContext,
  ref: RepoRef,
  input: Parameters<GitHubApi['createPull']>[1],
): Promise<PullInfo> {
  const { options, state, git } = ctx;
  const operation = 'POST /repos/{owner}/{repo}/pulls';
  ctx.checkRepo(operation, ref);
  const [headOwner, headRef] = input.head.includes(':')
    ? (input.head.split(':', 2) as [string, string])
    : [options.repo.owner, input.head];
  const fromFork = headOwner.toLowerCase() !== options.repo.owner.toLowerCase();
  if ((await git.branchSha(input.base)) === undefined)
    fail(operation, 422, `Validation Failed: base ${input.base} is invalid`);
  const headSha = fromFork ? undefined : await git.branchSha(headRef);
  if (headSha === undefined) fail(operation, 422, `Validation Failed: head ${input.head} is invalid`);
  const duplicate = state
    .pulls()
    .find(
      (p) =>
        p.state === 'open' && p.pull.headRef === headRef && p.pull.headOwner?.toLowerCase() === headOwner.toLowerCase(),
    );
  if (duplicate !== undefined)
    fail(operation, 422, `Validation Failed: A pull request already exists for ${headOwner}:${headRef}.`);
  const created = state.addPull({
    title: input.title,
    body: input.body,
    user: state.self,
    headRef,
    headSha: headSha ?? '',
    baseRef: input.base,
    headOwner,
    fromFork,
    draft: input.draft ?? false,
  });
  return ctx.pullInfo(created, created.pull);
}

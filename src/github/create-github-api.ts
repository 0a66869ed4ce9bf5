import type { GitHubApi, OctokitLike } from './github-api.ts';
import { octokitCheckRunMethods } from './octokit-check-run-methods.ts';
import { octokitCommentMethods } from './octokit-comment-methods.ts';
import { octokitPullMethods } from './octokit-pull-methods.ts';
import { octokitRepoMethods } from './octokit-repo-methods.ts';
import { octokitRequests } from './octokit-requests.ts';
import { octokitReviewMethods } from './octokit-review-methods.ts';

export { graphqlBase } from './graphql-base.ts';

/**
 * The use cases' GitHub interface on any Octokit: the Action's (`createOctokit`), Probot's
 * `context.octokit`, or `createOctokit`. Every failure is a `GitHubApiError` naming the operation.
 */
export function createGitHubApi(octokit: OctokitLike): GitHubApi {
  const requests = octokitRequests(octokit);
  return {
    ...octokitRepoMethods(requests),
    ...octokitCommentMethods(requests),
    ...octokitCheckRunMethods(requests),
    ...octokitPullMethods(requests),
    ...octokitReviewMethods(requests),
  };
}

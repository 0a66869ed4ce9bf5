import type { ReviewThreadInfo } from './github-api.ts';
import { GitHubApiError } from './github-api-error.ts';
import type { ReviewMethods } from './github-api-groups.ts';
import { graphqlBase, throwOnGraphqlErrors } from './graphql-base.ts';
import type { OctokitRequests } from './octokit-requests.ts';
import {
  RESOLVE_THREAD_MUTATION,
  REVIEW_THREADS_QUERY,
  type ReviewThreadsResponse,
  resolveThreadResponse,
  reviewThreadsResponse,
} from './review-thread-queries.ts';

const operation = 'POST /graphql';
/** A bound on pages: 50 pages of 100 threads is more than any pull request has. */
const MAX_PAGES = 50;

/** `createGitHubApi`'s review-thread methods, over GraphQL (REST has no threads). */
export function octokitReviewThreads({
  octokit,
  call,
}: OctokitRequests): Pick<ReviewMethods, 'listReviewThreads' | 'resolveReviewThread'> {
  return {
    async listReviewThreads(ref, number) {
      const threads: ReviewThreadInfo[] = [];
      let cursor: string | null = null;
      for (let page = 0; page < MAX_PAGES; page += 1) {
        const variables: Record<string, unknown> = { owner: ref.owner, name: ref.repo, number, cursor };
        const { data }: { data: ReviewThreadsResponse } = await call(
          operation,
          { query: REVIEW_THREADS_QUERY, variables, ...graphqlBase(octokit) },
          reviewThreadsResponse,
        );
        throwOnGraphqlErrors(operation, data.errors);
        const list = data.data?.repository?.pullRequest?.reviewThreads;
        if (list == null)
          throw new GitHubApiError(operation, 200, `no pull request #${number} in ${ref.owner}/${ref.repo}`);
        for (const node of list.nodes) {
          threads.push({
            id: node.id,
            isResolved: node.isResolved,
            resolvedBy: node.resolvedBy?.login,
            comments: node.comments.nodes
              .filter((c) => c.databaseId !== null)
              .map((c) => ({
                id: c.databaseId ?? 0,
                body: c.body,
                author: c.author?.login,
                thumbsDownBy: c.reactions.nodes.flatMap((r) => (r.user ? [r.user.login] : [])),
              })),
          });
        }
        if (!list.pageInfo.hasNextPage || list.pageInfo.endCursor === null) break;
        cursor = list.pageInfo.endCursor;
      }
      return threads;
    },

    async resolveReviewThread(_ref, threadId) {
      const { data } = await call(
        operation,
        { query: RESOLVE_THREAD_MUTATION, variables: { threadId }, ...graphqlBase(octokit) },
        resolveThreadResponse,
      );
      throwOnGraphqlErrors(operation, data.errors);
    },
  };
}

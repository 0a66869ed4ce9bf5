import type { ReviewThreadInfo } from '../github/github-api.ts';
import type { ReviewMethods } from '../github/github-api-groups.ts';
import { fail, type MemoryGitHubContext } from './memory-github-context.ts';

/** The node id the in-memory GitHub gives the thread opened by review comment `rootId`. */
export function reviewThreadNodeId(rootId: number): string {
  return Buffer.from(`PullRequestReviewThread${rootId}`).toString('base64');
}

/** The in-memory GitHub's review threads, as its GraphQL `reviewThreads` and `resolveReviewThread` give and take them. */
export function memoryReviewThreads(
  ctx: MemoryGitHubContext,
): Pick<ReviewMethods, 'listReviewThreads' | 'resolveReviewThread'> {
  const { state } = ctx;
  return {
    async listReviewThreads(ref, number) {
      ctx.pullOf('POST /graphql', ref, number);
      return state.reviewThreads(number).map(
        (thread): ReviewThreadInfo => ({
          id: reviewThreadNodeId(thread.root.id),
          isResolved: thread.resolvedBy !== undefined,
          resolvedBy: thread.resolvedBy,
          comments: thread.comments.slice(0, 50).map((comment) => ({
            id: comment.id,
            body: comment.body,
            author: comment.user.login,
            thumbsDownBy: state.reactions
              .filter((r) => r.target.kind === 'review_comment' && r.target.id === comment.id && r.content === '-1')
              .slice(0, 20)
              .map((r) => r.user.login),
          })),
        }),
      );
    },

    async resolveReviewThread(ref, threadId) {
      ctx.checkRepo('POST /graphql', ref);
      const rootId = /^PullRequestReviewThread(\d+)$/.exec(Buffer.from(threadId, 'base64').toString('utf8'))?.[1];
      const root = rootId === undefined ? undefined : state.reviewComments.get(Number(rootId));
      if (root === undefined || root.inReplyToId !== undefined) {
        fail('POST /graphql', 200, `Could not resolve to a node with the global id of '${threadId}'`);
      }
      state.resolvedThreads.set(root.id, state.self.login);
    },
  };
}

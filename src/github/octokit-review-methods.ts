import { z } from 'zod';
import type { ReviewMethods } from './github-api-groups.ts';
import { reviewCommentResponse, reviewResponse } from './github-responses.ts';
import type { OctokitRequests } from './octokit-requests.ts';
import { octokitReviewThreads } from './octokit-review-threads.ts';

/** `createGitHubApi`'s review methods: reviews, their comments and the replies in their threads. */
export function octokitReviewMethods(requests: OctokitRequests): ReviewMethods {
  const { call, conditionalList } = requests;
  return {
    ...octokitReviewThreads(requests),
    listReviews(ref, number, options = {}) {
      return conditionalList(
        'GET /repos/{owner}/{repo}/pulls/{pull_number}/reviews',
        { ...ref, pull_number: number, per_page: 100 },
        reviewResponse,
        options.etag,
      );
    },

    async listReviewComments(ref, number, reviewId) {
      const { data } = await call(
        'GET /repos/{owner}/{repo}/pulls/{pull_number}/reviews/{review_id}/comments',
        { ...ref, pull_number: number, review_id: reviewId, per_page: 100 },
        z.array(reviewCommentResponse),
      );
      return data;
    },

    listPullComments(ref, number, options = {}) {
      return conditionalList(
        'GET /repos/{owner}/{repo}/pulls/{pull_number}/comments',
        { ...ref, pull_number: number, per_page: 100, ...(options.since ? { since: options.since } : {}) },
        reviewCommentResponse,
        options.etag,
      );
    },

    async replyToReviewComment(ref, number, commentId, body) {
      return (
        await call(
          'POST /repos/{owner}/{repo}/pulls/{pull_number}/comments/{comment_id}/replies',
          { ...ref, pull_number: number, comment_id: commentId, body },
          reviewCommentResponse,
        )
      ).data;
    },

    async createReview(ref, number, review) {
      const { data } = await call(
        'POST /repos/{owner}/{repo}/pulls/{pull_number}/reviews',
        {
          ...ref,
          pull_number: number,
          commit_id: review.commitId,
          body: review.body,
          event: 'COMMENT',
          comments: review.comments.map((c) => ({
            path: c.path,
            body: c.body,
            line: c.line,
            side: 'RIGHT',
            ...(c.startLine === undefined ? {} : { start_line: c.startLine, start_side: 'RIGHT' }),
          })),
        },
        z.object({ id: z.number(), html_url: z.string() }).loose(),
      );
      return { id: data.id, htmlUrl: data.html_url };
    },
  };
}

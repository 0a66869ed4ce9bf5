import { newSideRanges, parseDiffHunks } from '../github/git/diff-hunks.ts';
import { pullFilesFromGit } from '../github/git/pull-files-from-git.ts';
import type { GitHubApi, NewReviewComment, RepoRef, ReviewInfo } from '../github/github-api.ts';
import type { ReviewMethods } from '../github/github-api-groups.ts';
import { conditional, fail, type MemoryGitHubContext } from './memory-github-context.ts';
import type { ReviewCommentLocation } from './memory-github-state.ts';
import { memoryReviewThreads } from './memory-review-threads.ts';

/** The in-memory GitHub's review methods: reviews, their comments and the replies in their threads. */
export function memoryReviewMethods(ctx: MemoryGitHubContext): ReviewMethods {
  const { state } = ctx;
  return {
    ...memoryReviewThreads(ctx),
    async listReviews(ref, number, opts = {}) {
      ctx.pullOf('GET /repos/{owner}/{repo}/pulls/{pull_number}/reviews', ref, number);
      const list: ReviewInfo[] = state.reviews
        .filter((r) => r.pullNumber === number)
        .slice(0, 100)
        .map((r) => ({
          id: r.id,
          state: r.state,
          body: r.body,
          commitId: r.commitId,
          user: { ...r.user },
          submittedAt: r.submittedAt,
        }));
      return conditional(list, opts.etag);
    },

    async listReviewComments(ref, number, reviewId) {
      ctx.pullOf('GET /repos/{owner}/{repo}/pulls/{pull_number}/reviews/{review_id}/comments', ref, number);
      if (!state.reviews.some((r) => r.id === reviewId && r.pullNumber === number)) {
        fail('GET /repos/{owner}/{repo}/pulls/{pull_number}/reviews/{review_id}/comments', 404, 'Not Found');
      }
      return [...state.reviewComments.values()]
        .filter((c) => c.pullNumber === number && c.reviewId === reviewId)
        .slice(0, 100)
        .map((c) => ctx.reviewCommentInfo(c));
    },

    async listPullComments(ref, number, opts = {}) {
      ctx.pullOf('GET /repos/{owner}/{repo}/pulls/{pull_number}/comments', ref, number);
      const since = opts.since === undefined ? undefined : Date.parse(opts.since);
      const list = [...state.reviewComments.values()]
        .filter((c) => c.pullNumber === number && (since === undefined || Date.parse(c.createdAt) >= since))
        .slice(0, 100)
        .map((c) => ctx.reviewCommentInfo(c));
      return conditional(list, opts.etag);
    },

    async replyToReviewComment(ref, number, commentId, body) {
      const operation = 'POST /repos/{owner}/{repo}/pulls/{pull_number}/comments/{comment_id}/replies';
      ctx.pullOf(operation, ref, number);
      const parent = state.reviewComments.get(commentId);
      if (parent === undefined || parent.pullNumber !== number) return fail(operation, 404, 'Not Found');
      // GitHub answers only top-level comments: "Replies to replies are not supported."
      if (parent.inReplyToId !== undefined) fail(operation, 422, 'Replies to replies are not supported.');
      const reply = state.addReviewComment(number, {
        body,
        user: state.self,
        ...(parent.location === undefined ? {} : { location: parent.location }),
        inReplyToId: parent.id,
      });
      return ctx.reviewCommentInfo(reply);
    },

    createReview: (ref, number, review) => submitReview(ctx, ref, number, review),
  };
}

/**
 * Submits a `COMMENT` review as GitHub does: it needs a body, the pull's head commit, and each
 * comment on lines the diff shows; its comments are on the right side.
 */
async function submitReview(
  ctx: MemoryGitHubContext,
  ref: RepoRef,
  number: number,
  review: Parameters<GitHubApi['createReview']>[2],
): Promise<{ id: number; htmlUrl: string }> {
  const { options, state } = ctx;
  const operation = 'POST /repos/{owner}/{repo}/pulls/{pull_number}/reviews';
  const { issue, pull } = ctx.pullOf(operation, ref, number);
  // A COMMENT review needs a body; the commit must be the pull's head (the HTTP fake's reading of "part of the pull").
  if (review.body === '') fail(operation, 422, 'Unprocessable Entity: body is missing');
  const { headSha, baseSha } = await ctx.pullInfo(issue, pull);
  if (review.commitId !== headSha)
    fail(operation, 422, 'Unprocessable Entity: commit_id is not part of the pull request');
  const files = await pullFilesFromGit(options.bareRepo, baseSha, headSha);
  const patchOf = (path: string) => files.find((f) => f.filename === path)?.patch ?? '';
  for (const comment of review.comments) {
    if (!resolvable(comment, patchOf(comment.path)))
      fail(operation, 422, 'Unprocessable Entity: Line could not be resolved');
  }
  const stored = state.addReview(number, {
    state: 'COMMENTED',
    body: review.body,
    user: state.self,
    commitId: headSha,
  });
  for (const comment of review.comments) {
    state.addReviewComment(number, {
      body: comment.body,
      user: state.self,
      reviewId: stored.id,
      location: locationOf(comment, patchOf(comment.path)),
    });
  }
  return { id: stored.id, htmlUrl: `${ctx.html}/pull/${number}#pullrequestreview-${stored.id}` };
}

/** Whether GitHub can place a new comment: its lines in order, all shown on the new side of its file's diff. */
function resolvable(comment: NewReviewComment, patch: string): boolean {
  const start = comment.startLine ?? comment.line;
  const inOrder = comment.startLine === undefined || comment.startLine < comment.line;
  const ranges = newSideRanges(parseDiffHunks(patch));
  const shown = ranges.some(([a, b]) => a <= start && comment.line <= b);
  return inOrder && shown;
}

/** Where a new review comment stands: its lines on the right side, in its file's diff. */
function locationOf(comment: NewReviewComment, patch: string): ReviewCommentLocation {
  const lines = { start: comment.startLine ?? comment.line, end: comment.line };
  return {
    path: comment.path,
    lines,
    originalLines: lines,
    side: 'RIGHT',
    startSide: comment.startLine === undefined ? undefined : 'RIGHT',
    diffHunk: patch,
  };
}

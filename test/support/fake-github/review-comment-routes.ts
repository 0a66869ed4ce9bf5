import type { FakeReviewComment } from './fake-github-records.ts';
import { type RenderContext, renderUser } from './render.ts';
import { notFound, numberParam, paginate, type RouteHandler, refOf, repoOf, validationFailed } from './route-kit.ts';

type Json = Record<string, unknown>;

function nodeId(kind: string, id: number): string {
  return Buffer.from(`${kind}${id}`).toString('base64');
}

/** A `pull-request-review-comment` (also a valid `review-comment`): the comment, its place in the diff, its thread. */
export function renderReviewComment(context: RenderContext, comment: FakeReviewComment): Json {
  const [owner, repo] = comment.repoKey.split('/') as [string, string];
  const repoApi = `${context.api}/repos/${owner}/${repo}`;
  const url = `${repoApi}/pulls/comments/${comment.id}`;
  const html = `https://github.com/${owner}/${repo}/pull/${comment.pullNumber}#discussion_r${comment.id}`;
  const pullUrl = `${repoApi}/pulls/${comment.pullNumber}`;
  return {
    url,
    pull_request_review_id: comment.reviewId,
    id: comment.id,
    node_id: nodeId('PullRequestReviewComment', comment.id),
    diff_hunk: comment.diffHunk,
    path: comment.path,
    position: comment.line,
    original_position: comment.originalLine,
    commit_id: comment.commitId,
    original_commit_id: comment.originalCommitId,
    ...(comment.inReplyToId === undefined ? {} : { in_reply_to_id: comment.inReplyToId }),
    user: renderUser(context, comment.user),
    body: comment.body,
    created_at: comment.createdAt,
    updated_at: comment.createdAt,
    html_url: html,
    pull_request_url: pullUrl,
    author_association: 'NONE',
    _links: { self: { href: url }, html: { href: html }, pull_request: { href: pullUrl } },
    start_line: comment.startLine,
    original_start_line: comment.originalStartLine,
    start_side: comment.startSide,
    line: comment.line,
    original_line: comment.originalLine,
    side: comment.side,
    subject_type: 'line',
  };
}

/** Review comment routes (replies in a thread, a review's comments), by operation id. */
export const reviewCommentRoutes: Record<string, RouteHandler> = {
  'pulls/create-reply-for-review-comment': (context) => {
    const number = numberParam(context.params, 'pull_number');
    if (repoOf(context) === undefined || context.state.pull(refOf(context), number) === undefined) return notFound();
    const parent = context.state.reviewComment(numberParam(context.params, 'comment_id'));
    const key = `${context.params.owner}/${context.params.repo}`.toLowerCase();
    if (parent === undefined || parent.repoKey !== key || parent.pullNumber !== number) return notFound();
    if (parent.inReplyToId !== undefined) return validationFailed('Replies to replies are not supported.');
    const body = (context.body as { body: string }).body;
    const reply = context.state.addReviewComment(refOf(context), number, {
      body,
      user: context.identity,
      path: parent.path,
      line: parent.line,
      side: parent.side,
      ...(parent.startLine === null ? {} : { startLine: parent.startLine }),
      ...(parent.startSide === null ? {} : { startSide: parent.startSide }),
      originalLine: parent.originalLine,
      ...(parent.originalStartLine === null ? {} : { originalStartLine: parent.originalStartLine }),
      diffHunk: parent.diffHunk,
      commitId: parent.commitId,
      originalCommitId: parent.originalCommitId,
      inReplyToId: parent.id,
    });
    return { status: 201, body: renderReviewComment(context.render, reply) };
  },

  'pulls/list-review-comments': (context) => {
    const ref = refOf(context);
    const number = numberParam(context.params, 'pull_number');
    if (repoOf(context) === undefined || context.state.pull(ref, number) === undefined) return notFound();
    const since = typeof context.query.since === 'string' ? Date.parse(context.query.since) : undefined;
    // GitHub's default order: by creation, oldest first. A review comment's edits are not kept here:
    // `updated_at` is its creation time.
    const comments = context.state
      .reviewComments(ref, number)
      .filter((c) => since === undefined || Date.parse(c.createdAt) >= since);
    const { page, headers } = paginate(context, comments);
    return { status: 200, body: page.map((c) => renderReviewComment(context.render, c)), headers };
  },

  'pulls/list-comments-for-review': (context) => {
    const ref = refOf(context);
    const number = numberParam(context.params, 'pull_number');
    const reviewId = numberParam(context.params, 'review_id');
    if (repoOf(context) === undefined || context.state.pull(ref, number) === undefined) return notFound();
    if (!context.state.reviews(ref, number).some((r) => r.id === reviewId)) return notFound();
    const comments = context.state.reviewComments(ref, number).filter((c) => c.reviewId === reviewId);
    const { page, headers } = paginate(context, comments);
    return { status: 200, body: page.map((c) => renderReviewComment(context.render, c)), headers };
  },
};

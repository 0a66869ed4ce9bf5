import type { CommentMethods } from '../github/github-api-groups.ts';
import { conditional, fail, type MemoryGitHubContext } from './memory-github-context.ts';

/** The in-memory GitHub's issue-comment methods, reactions included. */
export function memoryCommentMethods(ctx: MemoryGitHubContext): CommentMethods {
  const { state } = ctx;
  return {
    async addReaction(ref, target, content) {
      const operation = 'POST /repos/{owner}/{repo}/…/reactions';
      ctx.checkRepo(operation, ref);
      const id =
        target.kind === 'issue'
          ? ctx.issueOf(operation, ref, target.issueNumber).number
          : target.kind === 'issue_comment'
            ? (state.commentsById.get(target.commentId)?.id ?? fail(operation, 404, 'Not Found'))
            : (state.reviewComments.get(target.commentId)?.id ?? fail(operation, 404, 'Not Found'));
      state.react({ kind: target.kind, id }, content, state.self);
    },

    async createComment(ref, issueNumber, body) {
      ctx.issueOf('POST /repos/{owner}/{repo}/issues/{issue_number}/comments', ref, issueNumber);
      return ctx.commentInfo(state.addComment(issueNumber, { body, user: state.self }));
    },

    async updateComment(ref, commentId, body) {
      const operation = 'PATCH /repos/{owner}/{repo}/issues/comments/{comment_id}';
      ctx.checkRepo(operation, ref);
      const comment = state.commentsById.get(commentId) ?? fail(operation, 404, 'Not Found');
      comment.body = body;
      comment.updatedAt = state.timestamp();
      comment.lastEditedAt = comment.updatedAt;
    },

    async commentLastEditedAt(ref, info) {
      const operation = 'POST /graphql';
      ctx.checkRepo(operation, ref);
      const comment = state.commentsById.get(info.id) ?? fail(operation, 404, 'Not Found');
      return comment.lastEditedAt ?? null;
    },

    async getComment(ref, commentId) {
      const operation = 'GET /repos/{owner}/{repo}/issues/comments/{comment_id}';
      ctx.checkRepo(operation, ref);
      return ctx.commentInfo(state.commentsById.get(commentId) ?? fail(operation, 404, 'Not Found'));
    },

    async listComments(ref, issueNumber, opts = {}) {
      ctx.issueOf('GET /repos/{owner}/{repo}/issues/{issue_number}/comments', ref, issueNumber);
      const since = opts.since === undefined ? undefined : Date.parse(opts.since);
      const list = state
        .comments(issueNumber)
        .filter((c) => since === undefined || Date.parse(c.updatedAt) >= since)
        .slice(0, 100)
        .map((c) => ctx.commentInfo(c));
      return conditional(list, opts.etag);
    },
  };
}

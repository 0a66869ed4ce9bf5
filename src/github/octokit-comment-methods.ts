import { z } from 'zod';
import { GitHubApiError } from './github-api-error.ts';
import type { CommentMethods } from './github-api-groups.ts';
import { commentResponse, LAST_EDITED_QUERY, lastEditedResponse } from './github-responses.ts';
import { graphqlBase, throwOnGraphqlErrors } from './graphql-base.ts';
import type { OctokitRequests } from './octokit-requests.ts';

/** `createGitHubApi`'s issue-comment methods, reactions included. */
export function octokitCommentMethods({ octokit, call, conditionalList }: OctokitRequests): CommentMethods {
  return {
    async addReaction(ref, target, content) {
      const any = z.unknown();
      if (target.kind === 'issue_comment') {
        await call(
          'POST /repos/{owner}/{repo}/issues/comments/{comment_id}/reactions',
          { ...ref, comment_id: target.commentId, content },
          any,
        );
      } else if (target.kind === 'review_comment') {
        await call(
          'POST /repos/{owner}/{repo}/pulls/comments/{comment_id}/reactions',
          { ...ref, comment_id: target.commentId, content },
          any,
        );
      } else {
        await call(
          'POST /repos/{owner}/{repo}/issues/{issue_number}/reactions',
          { ...ref, issue_number: target.issueNumber, content },
          any,
        );
      }
    },

    async createComment(ref, issueNumber, body) {
      return (
        await call(
          'POST /repos/{owner}/{repo}/issues/{issue_number}/comments',
          { ...ref, issue_number: issueNumber, body },
          commentResponse,
        )
      ).data;
    },

    async updateComment(ref, commentId, body) {
      await call(
        'PATCH /repos/{owner}/{repo}/issues/comments/{comment_id}',
        { ...ref, comment_id: commentId, body },
        commentResponse,
      );
    },

    async commentLastEditedAt(_ref, comment) {
      const operation = 'POST /graphql';
      if (comment.nodeId === undefined) throw new GitHubApiError(operation, undefined, 'the comment has no node_id');
      const { data } = await call(
        operation,
        { query: LAST_EDITED_QUERY, variables: { id: comment.nodeId }, ...graphqlBase(octokit) },
        lastEditedResponse,
      );
      throwOnGraphqlErrors(operation, data.errors);
      const node = data.data?.node;
      if (node == null) throw new GitHubApiError(operation, 200, `no comment has the node id ${comment.nodeId}`);
      return node.lastEditedAt;
    },

    async getComment(ref, commentId) {
      return (
        await call(
          'GET /repos/{owner}/{repo}/issues/comments/{comment_id}',
          { ...ref, comment_id: commentId },
          commentResponse,
        )
      ).data;
    },

    listComments(ref, issueNumber, options = {}) {
      return conditionalList(
        'GET /repos/{owner}/{repo}/issues/{issue_number}/comments',
        { ...ref, issue_number: issueNumber, per_page: 100, ...(options.since ? { since: options.since } : {}) },
        commentResponse,
        options.etag,
      );
    },
  };
}

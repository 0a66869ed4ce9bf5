import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createGitHubApi } from '../../src/github/create-github-api.ts';
import { createOctokit } from '../../src/github/create-octokit.ts';
import type { GitHubApi } from '../../src/github/github-api.ts';
import { GitHubApiError } from '../../src/github/github-api-error.ts';
import { type FakeGitHub, startFakeGitHub } from '../support/fake-github/fake-github.ts';

const ref = { owner: 'acme', repo: 'widgets' };
const hunk = '@@ -8,6 +8,9 @@ export function add(a, b) {\n   return a + b;\n+}\n+// <b>new</b>';

let gh: FakeGitHub;
let api: GitHubApi;

beforeEach(async () => {
  gh = await startFakeGitHub();
  gh.state.addRepo(ref);
  gh.state.addPull(ref, { number: 4, title: 'Add', headRef: 'add', user: 'alice' });
  api = createGitHubApi(createOctokit({ token: 'tok', baseUrl: gh.url, waitScale: 1 }));
});
afterEach(async () => {
  await gh.close();
});

describe('review comments through createGitHubApi, against the fake checked by the OpenAPI description', () => {
  it('listReviewComments: a review’s comments with path, line range, sides and hunk; another review’s are left out', async () => {
    const review = gh.state.addReview(ref, 4, { state: 'COMMENTED', body: '@agent see below', user: 'alice' });
    const other = gh.state.addReview(ref, 4, { state: 'COMMENTED', body: '', user: 'bob' });
    gh.state.addReviewComment(ref, 4, {
      body: 'rename this',
      user: 'alice',
      path: 'src/add.ts',
      startLine: 9,
      line: 11,
      side: 'RIGHT',
      startSide: 'RIGHT',
      originalStartLine: 8,
      originalLine: 10,
      diffHunk: hunk,
      reviewId: review.id,
    });
    gh.state.addReviewComment(ref, 4, { body: 'elsewhere', user: 'bob', reviewId: other.id });

    const comments = await api.listReviewComments(ref, 4, review.id);
    expect(comments).toEqual([
      expect.objectContaining({
        body: 'rename this',
        user: { login: 'alice', type: 'User' },
        path: 'src/add.ts',
        lines: { start: 9, end: 11 },
        originalLines: { start: 8, end: 10 },
        side: 'RIGHT',
        startSide: 'RIGHT',
        diffHunk: hunk,
        inReplyToId: undefined,
      }),
    ]);
    await expect(api.listReviewComments(ref, 4, 999_999)).rejects.toSatisfy(
      (error) => GitHubApiError.isInstance(error) && error.status === 404,
    );
    gh.assertNoViolations();
  });

  it('replyToReviewComment: the reply is in the thread (in_reply_to_id), on the same path and lines', async () => {
    const comment = gh.state.addReviewComment(ref, 4, {
      body: '@agent fix',
      user: 'alice',
      path: 'src/add.ts',
      line: 3,
      diffHunk: hunk,
    });
    const reply = await api.replyToReviewComment(ref, 4, comment.id, 'done');
    expect(reply).toMatchObject({
      body: 'done',
      path: 'src/add.ts',
      lines: { start: 3, end: 3 },
      inReplyToId: comment.id,
    });
    const stored = gh.state.reviewComment(reply.id);
    expect(stored?.inReplyToId).toBe(comment.id);
    expect(stored?.user.login).toBe('agent-mux[bot]');
    expect(gh.requests.at(-1)?.operationId).toBe('pulls/create-reply-for-review-comment');

    await expect(api.replyToReviewComment(ref, 4, reply.id, 'again')).rejects.toSatisfy(
      (error) => GitHubApiError.isInstance(error) && error.status === 422,
    );
    await expect(api.replyToReviewComment(ref, 4, 424_242, 'x')).rejects.toSatisfy(
      (error) => GitHubApiError.isInstance(error) && error.status === 404,
    );
    gh.assertNoViolations();
  });
});

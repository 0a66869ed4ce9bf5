import { createGitHubApi } from '../../src/github/create-github-api.ts';
import { createOctokit } from '../../src/github/create-octokit.ts';
import { startFakeGitHub } from './fake-github/fake-github.ts';
import type { GitHubApiHarness, MakeGitHubApiHarness } from './github-api-harness.ts';

/**
 * The HTTP fake GitHub as a contract harness: the port is the real `createGitHubApi` on a real Octokit
 * pointed at the fake, so every call crosses HTTP and the fake's OpenAPI checks.
 */
export const fakeGitHubHarness: MakeGitHubApiHarness = async (bare) => {
  const repo = { owner: 'octo', repo: 'demo' };
  const gh = await startFakeGitHub({ git: { bareRepo: bare } });
  gh.state.addRepo({ ...repo, defaultBranch: 'main' });
  const api = createGitHubApi(createOctokit({ token: 'ghs_contract', baseUrl: gh.url, waitScale: 1 }));
  const { state } = gh;
  const harness: GitHubApiHarness = {
    api,
    repo,
    selfLogin: 'agent-mux[bot]',
    cloneUrl: (owner) => `https://github.com/${owner}/${repo.repo}.git`,
    seed: {
      role: (login, role) => state.setPermission(repo, login, role),
      team: (org, slug, members) => state.addTeam(org, slug, members),
      issue: (number, title, user) => {
        state.addIssue(repo, { number, title, user });
      },
      pull: (pull) => {
        state.addPull(repo, {
          number: pull.number,
          title: pull.title,
          user: pull.user,
          headRef: pull.headRef,
          ...(pull.headSha === undefined ? {} : { headSha: pull.headSha }),
          ...(pull.fork === undefined ? {} : { fromFork: pull.fork ?? 'deleted' }),
          maintainerCanModify: pull.maintainerCanModify ?? false,
        });
      },
      comment: (issueNumber, body, user) => state.addComment(repo, issueNumber, { body, user }).id,
      reviewComment: (pullNumber, comment) =>
        state.addReviewComment(repo, pullNumber, {
          body: comment.body,
          user: comment.user,
          ...(comment.path === undefined ? {} : { path: comment.path }),
          ...(comment.line === undefined ? {} : { line: comment.line }),
          ...(comment.diffHunk === undefined ? {} : { diffHunk: comment.diffHunk }),
          ...(comment.reviewId === undefined ? {} : { reviewId: comment.reviewId }),
        }).id,
      review: (pullNumber, review) =>
        state.addReview(repo, pullNumber, {
          state: review.state as 'APPROVED',
          body: review.body ?? '',
          user: review.user,
          commitId: review.commitId,
        }).id,
      reviewCommentReaction: (commentId, content, user) => {
        const memory = state.memory(repo);
        memory?.react({ kind: 'review_comment', id: commentId }, content, memory.user(user));
      },
      workflowRun: (status) => state.addWorkflowRun(repo, status === undefined ? {} : { status }).id,
      actionsCache: (key, ref) => state.addActionsCache(repo, ref === undefined ? { key } : { key, ref }).id,
    },
    inspect: {
      reactions: () =>
        state.reactions.map((r) => ({ kind: r.target.kind, id: r.target.id, content: r.content, login: r.user.login })),
      checkRuns: () =>
        state.checkRuns(repo).map((run) => ({
          id: run.id,
          name: run.name,
          headSha: run.headSha,
          status: run.status,
          conclusion: run.conclusion ?? undefined,
          title: run.output.title ?? undefined,
          summary: run.output.summary ?? undefined,
          text: run.output.text ?? undefined,
          annotationPaths: run.output.annotations.map((a) => a.path),
          actions: run.actions.map((a) => a.identifier),
          completed: run.completedAt !== null,
          updates: run.updates,
        })),
      reviewRequests: (number) => state.reviewRequests(repo, number),
      workflowRun: (id) => {
        const run = state.workflowRun(id);
        return (
          run && { status: run.status, conclusion: run.conclusion ?? undefined, cancelRequested: run.cancelRequested }
        );
      },
    },
    setNow: (now) => {
      state.now = now;
    },
    violations: () => [...gh.violations],
    close: () => gh.close(),
  };
  return harness;
};

import { createMemoryGitHub } from '../../src/simulate/memory-github.ts';
import type { ReviewCommentLocation } from '../../src/simulate/memory-github-state.ts';
import type { GitHubApiHarness, MakeGitHubApiHarness } from './github-api-harness.ts';

/** The in-memory GitHub of `agent-mux simulate` as a contract harness: the port is called in-process. */
export const memoryGitHubHarness: MakeGitHubApiHarness = async (bare) => {
  const repo = { owner: 'octo', repo: 'demo' };
  const gh = createMemoryGitHub({ repo, defaultBranch: 'main', bareRepo: bare });
  const { state } = gh;
  const cloneUrl = (owner: string) => (owner === repo.owner ? bare : `https://github.com/${owner}/${repo.repo}.git`);
  const harness: GitHubApiHarness = {
    api: gh.api,
    repo,
    selfLogin: state.selfLogin,
    cloneUrl,
    seed: {
      role: (login, role) => state.setRole(login, role),
      team: (org, slug, members) => state.addTeam(org, slug, members),
      issue: (number, title, user) => {
        state.addIssue({ number, title, user });
      },
      pull: (pull) => {
        const fork = pull.fork;
        state.addPull({
          number: pull.number,
          title: pull.title,
          user: pull.user,
          headRef: pull.headRef,
          headSha: pull.headSha ?? '',
          maintainerCanModify: pull.maintainerCanModify ?? false,
          ...(fork === undefined
            ? {}
            : {
                fromFork: true,
                headOwner: fork ?? undefined,
                headCloneUrl: fork === null ? undefined : cloneUrl(fork),
              }),
        });
      },
      comment: (issueNumber, body, user) => state.addComment(issueNumber, { body, user }).id,
      reviewCommentReaction: (commentId, content, user) => {
        state.react({ kind: 'review_comment', id: commentId }, content, state.user(user));
      },
      reviewComment: (pullNumber, comment) => {
        const line = comment.line ?? 1;
        const location: ReviewCommentLocation | undefined =
          comment.path === undefined
            ? undefined
            : {
                path: comment.path,
                lines: { start: line, end: line },
                originalLines: { start: line, end: line },
                side: 'RIGHT',
                startSide: undefined,
                diffHunk: comment.diffHunk ?? '',
              };
        return state.addReviewComment(pullNumber, {
          body: comment.body,
          user: comment.user,
          ...(location === undefined ? {} : { location }),
          ...(comment.reviewId === undefined ? {} : { reviewId: comment.reviewId }),
        }).id;
      },
      review: (pullNumber, review) => state.addReview(pullNumber, review).id,
      workflowRun: (status) => state.addWorkflowRun(status === undefined ? {} : { status }).id,
      actionsCache: (key, ref) => state.addActionsCache(ref === undefined ? { key } : { key, ref }).id,
    },
    inspect: {
      reactions: () =>
        state.reactions.map((r) => ({ kind: r.target.kind, id: r.target.id, content: r.content, login: r.user.login })),
      checkRuns: () =>
        state.checkRuns().map((run) => ({
          id: run.id,
          name: run.name,
          headSha: run.headSha,
          status: run.status,
          conclusion: run.conclusion,
          title: run.output.title,
          summary: run.output.summary,
          text: run.output.text,
          annotationPaths: run.annotations.map((a) => a.path),
          actions: run.actions.map((a) => a.identifier),
          completed: run.completedAt !== undefined,
          updates: run.updates,
        })),
      reviewRequests: (number) => {
        const pull = state.issues.get(number)?.pull;
        return { users: [...(pull?.requestedReviewers ?? [])], teams: [...(pull?.requestedTeams ?? [])] };
      },
      workflowRun: (id) => {
        const run = state.workflowRuns.get(id);
        return run && { status: run.status, conclusion: run.conclusion, cancelRequested: run.cancelRequested };
      },
    },
    setNow: (now) => {
      state.now = now;
    },
    violations: () => [],
    close: async () => {},
  };
  return harness;
};

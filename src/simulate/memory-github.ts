import { createHash } from 'node:crypto';
import { newSideRanges, parseDiffHunks } from '../github/git/diff-hunks.ts';
import { pullFilesFromGit } from '../github/git/pull-files-from-git.ts';
import type {
  CommentInfo,
  Conditional,
  GitHubApi,
  PullInfo,
  RepoRef,
  RepoRole,
  ReviewCommentInfo,
  ReviewInfo,
} from '../github/github-api.ts';
import { GitHubApiError } from '../github/github-api-error.ts';
import { type BareRepo, bareRepo } from './bare-repo.ts';
import { applyCheckRun, checkRunRefusal } from './check-run-rules.ts';
import {
  type MemoryComment,
  MemoryGitHubState,
  type MemoryIssue,
  type MemoryPullFields,
  type MemoryReviewComment,
} from './memory-github-state.ts';

export interface MemoryGitHubOptions {
  repo: RepoRef;
  defaultBranch: string;
  /** The bare repository that stands in for GitHub's git server: branches and files are read from it. */
  bareRepo: string;
  /** The login agent-mux posts as. Default `agent-mux[bot]`. */
  selfLogin?: string;
  /** Collaborators' roles by login; the repository owner is always an admin. */
  roles?: Record<string, RepoRole>;
  /** Files served in place of the default branch's (path → text), e.g. an uncommitted `.github/agent-mux.yml`. */
  files?: Record<string, string>;
}

export interface MemoryGitHub {
  api: GitHubApi;
  state: MemoryGitHubState;
  git: BareRepo;
}

/**
 * An in-process GitHub for one repository, backed by a real bare git repository: a faithful
 * implementation of every `GitHubApi` method, for `agent-mux simulate` and for tests. Failures are
 * `GitHubApiError`s with the status GitHub would answer (404 for what does not exist, 422 for what
 * GitHub refuses). Comments, check runs and pull requests are made by `selfLogin`.
 */
export function createMemoryGitHub(options: MemoryGitHubOptions): MemoryGitHub {
  const state = new MemoryGitHubState({
    repo: options.repo,
    defaultBranch: options.defaultBranch,
    selfLogin: options.selfLogin ?? 'agent-mux[bot]',
  });
  for (const [login, role] of Object.entries(options.roles ?? {})) state.setRole(login, role);
  const git = bareRepo(options.bareRepo);
  const fullName = `${options.repo.owner}/${options.repo.repo}`;
  const html = `https://github.com/${fullName}`;

  const fail = (operation: string, status: number, message: string): never => {
    throw new GitHubApiError(operation, status, message);
  };
  const checkRepo = (operation: string, ref: RepoRef) => {
    if (
      ref.owner.toLowerCase() !== options.repo.owner.toLowerCase() ||
      ref.repo.toLowerCase() !== options.repo.repo.toLowerCase()
    ) {
      fail(operation, 404, 'Not Found');
    }
  };
  const issueOf = (operation: string, ref: RepoRef, number: number): MemoryIssue => {
    checkRepo(operation, ref);
    return state.issues.get(number) ?? fail(operation, 404, 'Not Found');
  };
  const pullOf = (operation: string, ref: RepoRef, number: number) => {
    const issue = issueOf(operation, ref, number);
    return issue.pull === undefined ? fail(operation, 404, 'Not Found') : { issue, pull: issue.pull };
  };
  const commentInfo = (c: MemoryComment): CommentInfo => ({
    id: c.id,
    body: c.body,
    htmlUrl: `${html}/issues/${c.issueNumber}#issuecomment-${c.id}`,
    user: { ...c.user },
    createdAt: c.createdAt,
    updatedAt: c.updatedAt,
  });
  const pullInfo = async (issue: MemoryIssue, pull: MemoryPullFields): Promise<PullInfo> => {
    const headSha = pull.fromFork ? pull.headSha : ((await git.branchSha(pull.headRef)) ?? pull.headSha);
    const baseSha = (await git.branchSha(pull.baseRef)) ?? '';
    return {
      number: issue.number,
      htmlUrl: `${html}/pull/${issue.number}`,
      state: issue.state,
      headSha,
      headRef: pull.headRef,
      headRepoFullName: pull.headOwner === undefined ? undefined : `${pull.headOwner}/${options.repo.repo}`,
      headCloneUrl: pull.headOwner === undefined ? undefined : (pull.headCloneUrl ?? options.bareRepo),
      baseRef: pull.baseRef,
      baseSha,
      maintainerCanModify: pull.maintainerCanModify,
      fromFork: pull.fromFork,
    };
  };
  const conditional = <T>(data: T[], etag: string | undefined): Conditional<T[]> => {
    const current = `W/"${createHash('sha1').update(JSON.stringify(data)).digest('hex')}"`;
    return etag === current ? { notModified: true, etag, data: [] } : { notModified: false, etag: current, data };
  };

  const api: GitHubApi = {
    async getRepo(ref) {
      checkRepo('GET /repos/{owner}/{repo}', ref);
      return {
        fullName,
        defaultBranch: options.defaultBranch,
        private: false,
        cloneUrl: options.bareRepo,
        htmlUrl: html,
      };
    },

    async getPermission(ref, username) {
      checkRepo('GET /repos/{owner}/{repo}/collaborators/{username}/permission', ref);
      return state.roleOf(username);
    },

    async isTeamMember(org, teamSlug, username) {
      return state.teams.isActiveMember(org, teamSlug, username);
    },

    async getFileText(ref, path, gitRef) {
      checkRepo('GET /repos/{owner}/{repo}/contents/{path}', ref);
      const override = options.files?.[path];
      const isDefault = gitRef === options.defaultBranch || gitRef === `refs/heads/${options.defaultBranch}`;
      if (override !== undefined && isDefault) return override;
      return git.fileText(gitRef, path);
    },

    async getBranchSha(ref, branch) {
      checkRepo('GET /repos/{owner}/{repo}/git/ref/{ref}', ref);
      return git.branchSha(branch);
    },

    async addReaction(ref, target, content) {
      const operation = 'POST /repos/{owner}/{repo}/…/reactions';
      checkRepo(operation, ref);
      const id =
        target.kind === 'issue'
          ? issueOf(operation, ref, target.issueNumber).number
          : target.kind === 'issue_comment'
            ? (state.commentsById.get(target.commentId)?.id ?? fail(operation, 404, 'Not Found'))
            : (state.reviewComments.get(target.commentId)?.id ?? fail(operation, 404, 'Not Found'));
      state.react({ kind: target.kind, id }, content, state.self);
    },

    async createComment(ref, issueNumber, body) {
      issueOf('POST /repos/{owner}/{repo}/issues/{issue_number}/comments', ref, issueNumber);
      return commentInfo(state.addComment(issueNumber, { body, user: state.self }));
    },

    async updateComment(ref, commentId, body) {
      const operation = 'PATCH /repos/{owner}/{repo}/issues/comments/{comment_id}';
      checkRepo(operation, ref);
      const comment = state.commentsById.get(commentId) ?? fail(operation, 404, 'Not Found');
      comment.body = body;
      comment.updatedAt = state.timestamp();
      comment.lastEditedAt = comment.updatedAt;
    },

    async commentLastEditedAt(ref, info) {
      const operation = 'POST /graphql';
      checkRepo(operation, ref);
      const comment = state.commentsById.get(info.id) ?? fail(operation, 404, 'Not Found');
      return comment.lastEditedAt ?? null;
    },

    async getComment(ref, commentId) {
      const operation = 'GET /repos/{owner}/{repo}/issues/comments/{comment_id}';
      checkRepo(operation, ref);
      return commentInfo(state.commentsById.get(commentId) ?? fail(operation, 404, 'Not Found'));
    },

    async listComments(ref, issueNumber, opts = {}) {
      issueOf('GET /repos/{owner}/{repo}/issues/{issue_number}/comments', ref, issueNumber);
      const since = opts.since === undefined ? undefined : Date.parse(opts.since);
      const list = state
        .comments(issueNumber)
        .filter((c) => since === undefined || Date.parse(c.updatedAt) >= since)
        .slice(0, 100)
        .map(commentInfo);
      return conditional(list, opts.etag);
    },

    async createCheckRun(ref, run) {
      const operation = 'POST /repos/{owner}/{repo}/check-runs';
      checkRepo(operation, ref);
      const refused = checkRunRefusal(run, undefined);
      if (refused !== undefined) fail(operation, 422, refused);
      const stored = state.addCheckRun({
        name: run.name,
        headSha: run.headSha,
        creator: state.self,
        ...(run.startedAt === undefined ? {} : { startedAt: run.startedAt }),
        ...(run.externalId === undefined ? {} : { externalId: run.externalId }),
        ...(run.detailsUrl === undefined ? {} : { detailsUrl: run.detailsUrl }),
      });
      applyCheckRun(stored, run, state.timestamp());
      return { id: stored.id, htmlUrl: `${html}/runs/${stored.id}` };
    },

    async updateCheckRun(ref, checkRunId, update) {
      const operation = 'PATCH /repos/{owner}/{repo}/check-runs/{check_run_id}';
      checkRepo(operation, ref);
      const run = state.checkRunsById.get(checkRunId) ?? fail(operation, 404, 'Not Found');
      const refused = checkRunRefusal(update, run);
      if (refused !== undefined) fail(operation, 422, refused);
      applyCheckRun(run, update, state.timestamp());
      run.updates += 1;
    },

    async getCheckRun(ref, checkRunId) {
      const operation = 'GET /repos/{owner}/{repo}/check-runs/{check_run_id}';
      checkRepo(operation, ref);
      const run = state.checkRunsById.get(checkRunId) ?? fail(operation, 404, 'Not Found');
      return { status: run.status, conclusion: run.conclusion ?? null };
    },

    async getPull(ref, number) {
      const { issue, pull } = pullOf('GET /repos/{owner}/{repo}/pulls/{pull_number}', ref, number);
      return pullInfo(issue, pull);
    },

    async findOpenPull(ref, headOwner, headBranch) {
      checkRepo('GET /repos/{owner}/{repo}/pulls', ref);
      const found = state
        .pulls()
        .reverse()
        .find(
          (p) =>
            p.state === 'open' &&
            `${p.pull.headOwner}:${p.pull.headRef}`.toLowerCase() === `${headOwner}:${headBranch}`.toLowerCase(),
        );
      return found === undefined ? undefined : pullInfo(found, found.pull);
    },

    async createPull(ref, input) {
      const operation = 'POST /repos/{owner}/{repo}/pulls';
      checkRepo(operation, ref);
      const [headOwner, headRef] = input.head.includes(':')
        ? (input.head.split(':', 2) as [string, string])
        : [options.repo.owner, input.head];
      const fromFork = headOwner.toLowerCase() !== options.repo.owner.toLowerCase();
      if ((await git.branchSha(input.base)) === undefined)
        fail(operation, 422, `Validation Failed: base ${input.base} is invalid`);
      const headSha = fromFork ? undefined : await git.branchSha(headRef);
      if (headSha === undefined) fail(operation, 422, `Validation Failed: head ${input.head} is invalid`);
      const duplicate = state
        .pulls()
        .find(
          (p) =>
            p.state === 'open' &&
            p.pull.headRef === headRef &&
            p.pull.headOwner?.toLowerCase() === headOwner.toLowerCase(),
        );
      if (duplicate !== undefined)
        fail(operation, 422, `Validation Failed: A pull request already exists for ${headOwner}:${headRef}.`);
      const created = state.addPull({
        title: input.title,
        body: input.body,
        user: state.self,
        headRef,
        headSha: headSha ?? '',
        baseRef: input.base,
        headOwner,
        fromFork,
        draft: input.draft ?? false,
      });
      return pullInfo(created, created.pull);
    },

    async requestReviewers(ref, number, reviewers) {
      const operation = 'POST /repos/{owner}/{repo}/pulls/{pull_number}/requested_reviewers';
      const { issue, pull } = pullOf(operation, ref, number);
      if (reviewers.users.some((u) => u.toLowerCase() === issue.user.login.toLowerCase())) {
        fail(operation, 422, 'Review cannot be requested from pull request author.');
      }
      const strangers = reviewers.users.filter((u) => state.roleOf(u) === 'none');
      const unknownTeams = reviewers.teams.filter((t) => !state.teams.has(options.repo.owner, t));
      if (strangers.length + unknownTeams.length > 0) {
        fail(
          operation,
          422,
          `Reviews may only be requested from collaborators: ${[...strangers, ...unknownTeams].join(', ')}`,
        );
      }
      state.requestReviews(pull, reviewers);
    },

    async listReviews(ref, number, opts = {}) {
      pullOf('GET /repos/{owner}/{repo}/pulls/{pull_number}/reviews', ref, number);
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
      pullOf('GET /repos/{owner}/{repo}/pulls/{pull_number}/reviews/{review_id}/comments', ref, number);
      if (!state.reviews.some((r) => r.id === reviewId && r.pullNumber === number)) {
        fail('GET /repos/{owner}/{repo}/pulls/{pull_number}/reviews/{review_id}/comments', 404, 'Not Found');
      }
      return [...state.reviewComments.values()]
        .filter((c) => c.pullNumber === number && c.reviewId === reviewId)
        .slice(0, 100)
        .map(reviewCommentInfo);
    },

    async replyToReviewComment(ref, number, commentId, body) {
      const operation = 'POST /repos/{owner}/{repo}/pulls/{pull_number}/comments/{comment_id}/replies';
      pullOf(operation, ref, number);
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
      return reviewCommentInfo(reply);
    },

    async listPullFiles(ref, number) {
      const { issue, pull } = pullOf('GET /repos/{owner}/{repo}/pulls/{pull_number}/files', ref, number);
      const { headSha, baseSha } = await pullInfo(issue, pull);
      const files = await pullFilesFromGit(options.bareRepo, baseSha, headSha);
      return files.map((f) => ({ path: f.filename, status: f.status, patch: f.patch }));
    },

    async createReview(ref, number, review) {
      const operation = 'POST /repos/{owner}/{repo}/pulls/{pull_number}/reviews';
      const { issue, pull } = pullOf(operation, ref, number);
      // A COMMENT review needs a body; the commit must be the pull's head (the HTTP fake's reading of "part of the pull").
      if (review.body === '') fail(operation, 422, 'Unprocessable Entity: body is missing');
      const { headSha, baseSha } = await pullInfo(issue, pull);
      if (review.commitId !== headSha)
        fail(operation, 422, 'Unprocessable Entity: commit_id is not part of the pull request');
      const files = await pullFilesFromGit(options.bareRepo, baseSha, headSha);
      const patchOf = (path: string) => files.find((f) => f.filename === path)?.patch ?? '';
      for (const comment of review.comments) {
        const start = comment.startLine ?? comment.line;
        const inOrder = comment.startLine === undefined || comment.startLine < comment.line;
        const ranges = newSideRanges(parseDiffHunks(patchOf(comment.path)));
        const shown = ranges.some(([a, b]) => a <= start && comment.line <= b);
        if (!inOrder || !shown) fail(operation, 422, 'Unprocessable Entity: Line could not be resolved');
      }
      const stored = state.addReview(number, {
        state: 'COMMENTED',
        body: review.body,
        user: state.self,
        commitId: headSha,
      });
      for (const comment of review.comments) {
        const lines = { start: comment.startLine ?? comment.line, end: comment.line };
        state.addReviewComment(number, {
          body: comment.body,
          user: state.self,
          reviewId: stored.id,
          location: {
            path: comment.path,
            lines,
            originalLines: lines,
            side: 'RIGHT',
            startSide: comment.startLine === undefined ? undefined : 'RIGHT',
            diffHunk: patchOf(comment.path),
          },
        });
      }
      return { id: stored.id, htmlUrl: `${html}/pull/${number}#pullrequestreview-${stored.id}` };
    },

    async getWorkflowRun(ref, runId) {
      checkRepo('GET /repos/{owner}/{repo}/actions/runs/{run_id}', ref);
      const run = state.workflowRuns.get(runId);
      return run === undefined ? undefined : { id: run.id, status: run.status };
    },

    async cancelWorkflowRun(ref, runId) {
      const operation = 'POST /repos/{owner}/{repo}/actions/runs/{run_id}/cancel';
      checkRepo(operation, ref);
      const run = state.workflowRuns.get(runId) ?? fail(operation, 404, 'Not Found');
      if (run.status === 'completed') fail(operation, 409, 'Cannot cancel a workflow run that is completed.');
      state.cancelWorkflowRun(run);
    },
  };

  return { api, state, git };

  function reviewCommentInfo(comment: MemoryReviewComment): ReviewCommentInfo {
    const location = comment.location ?? {
      path: 'README.md',
      lines: { start: 1, end: 1 },
      originalLines: { start: 1, end: 1 },
      side: 'RIGHT',
      startSide: undefined,
      diffHunk: '',
    };
    return {
      id: comment.id,
      body: comment.body,
      user: { ...comment.user },
      ...location,
      htmlUrl: `${html}/pull/${comment.pullNumber}#discussion_r${comment.id}`,
      inReplyToId: comment.inReplyToId,
    };
  }
}

import { z } from 'zod';
import type {
  CheckRunOutput,
  Conditional,
  CreateCheckRun,
  GitHubApi,
  OctokitLike,
  PullFile,
  UpdateCheckRun,
} from './github-api.ts';
import { GitHubApiError, statusOf } from './github-api-error.ts';
import {
  checkRunResponse,
  checkRunStateResponse,
  commentResponse,
  contentResponse,
  LAST_EDITED_QUERY,
  lastEditedResponse,
  membershipResponse,
  permissionResponse,
  pullResponse,
  refResponse,
  repoResponse,
  reviewCommentResponse,
  reviewResponse,
} from './github-responses.ts';

/** One entry of "list pull request files" (`diff-entry`). */
const pullFileResponse = z
  .object({ filename: z.string(), status: z.string(), patch: z.string().nullish() })
  .loose()
  .transform((f): PullFile => ({ path: f.filename, status: f.status, patch: f.patch ?? undefined }));

/**
 * The use cases' GitHub interface on any Octokit: the Action's (`createOctokit`), Probot's
 * `context.octokit`, or `createOctokit`. Every failure is a `GitHubApiError` naming the operation.
 */
export function createGitHubApi(octokit: OctokitLike): GitHubApi {
  async function call<S extends z.ZodType>(
    route: string,
    params: Record<string, unknown>,
    schema: S,
  ): Promise<{ data: z.output<S>; status: number; etag: string | undefined }> {
    let response: Awaited<ReturnType<OctokitLike['request']>>;
    try {
      response = await octokit.request(route, params);
    } catch (error) {
      throw GitHubApiError.from(route, error);
    }
    const parsed = schema.safeParse(response.data);
    if (!parsed.success) {
      throw new GitHubApiError(route, response.status, `unexpected response: ${parsed.error.issues[0]?.message}`);
    }
    return { data: parsed.data, status: response.status, etag: header(response.headers, 'etag') };
  }

  /** A request that may answer 404 (absent) or 304 (not modified). */
  async function maybe<S extends z.ZodType>(
    route: string,
    params: Record<string, unknown>,
    schema: S,
    absentOn: readonly number[] = [404],
  ): Promise<{ data: z.output<S>; etag: string | undefined } | { absent: number }> {
    try {
      return await call(route, params, schema);
    } catch (error) {
      const status = GitHubApiError.isInstance(error) ? error.status : statusOf(error);
      if (status !== undefined && absentOn.includes(status)) return { absent: status };
      throw error;
    }
  }

  async function conditionalList<S extends z.ZodType>(
    route: string,
    params: Record<string, unknown>,
    schema: S,
    etag: string | undefined,
  ): Promise<Conditional<z.output<S>[]>> {
    const headers = etag ? { 'if-none-match': etag } : {};
    const result = await maybe(route, { ...params, headers }, z.array(schema), [304]);
    if ('absent' in result) return { notModified: true, etag, data: [] };
    return { notModified: false, etag: result.etag, data: result.data };
  }

  return {
    async getRepo(ref) {
      return (await call('GET /repos/{owner}/{repo}', { ...ref }, repoResponse)).data;
    },

    async getPermission(ref, username) {
      const result = await maybe(
        'GET /repos/{owner}/{repo}/collaborators/{username}/permission',
        { ...ref, username },
        permissionResponse,
      );
      return 'absent' in result ? 'none' : result.data;
    },

    async isTeamMember(org, teamSlug, username) {
      const result = await maybe(
        'GET /orgs/{org}/teams/{team_slug}/memberships/{username}',
        { org, team_slug: teamSlug, username },
        membershipResponse,
      );
      return !('absent' in result) && result.data.state === 'active';
    },

    async getFileText(ref, path, gitRef) {
      const result = await maybe(
        'GET /repos/{owner}/{repo}/contents/{path}',
        { ...ref, path, ref: gitRef },
        contentResponse,
      );
      if ('absent' in result) return undefined;
      const file = result.data;
      if (file.type !== 'file' || file.content === undefined) return undefined;
      return Buffer.from(file.content, file.encoding === 'base64' ? 'base64' : 'utf8').toString('utf8');
    },

    async getBranchSha(ref, branch) {
      const result = await maybe(
        'GET /repos/{owner}/{repo}/git/ref/{ref}',
        { owner: ref.owner, repo: ref.repo, ref: `heads/${branch}` },
        refResponse,
      );
      return 'absent' in result ? undefined : result.data.object.sha;
    },

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
      if (data.errors !== undefined && data.errors.length > 0) {
        throw new GitHubApiError(operation, 200, data.errors.map((e) => e.message).join('; '));
      }
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

    async createCheckRun(ref, run) {
      const { data } = await call(
        'POST /repos/{owner}/{repo}/check-runs',
        { ...ref, ...checkRunBody(run) },
        checkRunResponse,
      );
      return { id: data.id, htmlUrl: data.html_url ?? '' };
    },

    async updateCheckRun(ref, checkRunId, update) {
      await call(
        'PATCH /repos/{owner}/{repo}/check-runs/{check_run_id}',
        { ...ref, check_run_id: checkRunId, ...checkRunBody(update) },
        checkRunResponse,
      );
    },

    async getCheckRun(ref, checkRunId) {
      return (
        await call(
          'GET /repos/{owner}/{repo}/check-runs/{check_run_id}',
          { ...ref, check_run_id: checkRunId },
          checkRunStateResponse,
        )
      ).data;
    },

    async getPull(ref, number) {
      return (
        await call('GET /repos/{owner}/{repo}/pulls/{pull_number}', { ...ref, pull_number: number }, pullResponse)
      ).data;
    },

    async findOpenPull(ref, headOwner, headBranch) {
      const { data } = await call(
        'GET /repos/{owner}/{repo}/pulls',
        { ...ref, head: `${headOwner}:${headBranch}`, state: 'open', per_page: 1 },
        z.array(pullResponse),
      );
      return data[0];
    },

    async createPull(ref, pull) {
      return (
        await call(
          'POST /repos/{owner}/{repo}/pulls',
          {
            ...ref,
            title: pull.title,
            head: pull.head,
            base: pull.base,
            body: pull.body,
            draft: pull.draft ?? false,
          },
          pullResponse,
        )
      ).data;
    },

    async requestReviewers(ref, number, reviewers) {
      await call(
        'POST /repos/{owner}/{repo}/pulls/{pull_number}/requested_reviewers',
        { ...ref, pull_number: number, reviewers: reviewers.users, team_reviewers: reviewers.teams },
        z.unknown(),
      );
    },

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

    async replyToReviewComment(ref, number, commentId, body) {
      return (
        await call(
          'POST /repos/{owner}/{repo}/pulls/{pull_number}/comments/{comment_id}/replies',
          { ...ref, pull_number: number, comment_id: commentId, body },
          reviewCommentResponse,
        )
      ).data;
    },

    async listPullFiles(ref, number) {
      const files: PullFile[] = [];
      // GitHub lists at most 3,000 files, 100 a page.
      for (let page = 1; page <= 30; page++) {
        const { data } = await call(
          'GET /repos/{owner}/{repo}/pulls/{pull_number}/files',
          { ...ref, pull_number: number, per_page: 100, page },
          z.array(pullFileResponse),
        );
        files.push(...data);
        if (data.length < 100) break;
      }
      return files;
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

    async getWorkflowRun(ref, runId) {
      const result = await maybe(
        'GET /repos/{owner}/{repo}/actions/runs/{run_id}',
        { ...ref, run_id: runId },
        z.object({ id: z.number(), status: z.string().nullish() }).loose(),
      );
      return 'absent' in result ? undefined : { id: result.data.id, status: result.data.status ?? 'unknown' };
    },

    async cancelWorkflowRun(ref, runId) {
      await call('POST /repos/{owner}/{repo}/actions/runs/{run_id}/cancel', { ...ref, run_id: runId }, z.unknown());
    },
  };
}

function header(headers: Record<string, string | number | undefined>, name: string): string | undefined {
  const value = headers[name] ?? headers[name.toLowerCase()];
  return value === undefined ? undefined : String(value);
}

/** GitHub's snake_case body of a check-run create or update; absent fields are left out. */
function checkRunBody(run: CreateCheckRun | UpdateCheckRun): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  if ('name' in run) {
    body.name = run.name;
    body.head_sha = run.headSha;
    if (run.startedAt) body.started_at = run.startedAt;
    if (run.externalId) body.external_id = run.externalId;
    if (run.detailsUrl) body.details_url = run.detailsUrl;
  }
  if (run.status) body.status = run.status;
  if ('conclusion' in run && run.conclusion) body.conclusion = run.conclusion;
  if ('completedAt' in run && run.completedAt) body.completed_at = run.completedAt;
  if (run.output) body.output = outputBody(run.output);
  if (run.actions) body.actions = run.actions;
  return body;
}

function outputBody(output: CheckRunOutput): Record<string, unknown> {
  return {
    title: output.title,
    summary: output.summary,
    ...(output.text === undefined ? {} : { text: output.text }),
    ...(output.annotations?.length
      ? {
          annotations: output.annotations.map((a) => ({
            path: a.path,
            start_line: a.startLine,
            end_line: a.endLine,
            annotation_level: a.level,
            message: a.message,
            ...(a.title ? { title: a.title } : {}),
          })),
        }
      : {}),
  };
}

/**
 * Where GraphQL is on this Octokit's host: on GitHub Enterprise Server the REST API is under
 * `/api/v3` and GraphQL at `/api/graphql`, so `POST /graphql` needs the base URL without `/v3` (as
 * `@octokit/graphql` does). Empty (the Octokit's own base URL) where there is nothing to change.
 */
export function graphqlBase(octokit: OctokitLike): { baseUrl?: string } {
  const base = (octokit.request as { endpoint?: { DEFAULTS?: { baseUrl?: unknown } } }).endpoint?.DEFAULTS?.baseUrl;
  if (typeof base !== 'string' || !/\/api\/v3\/?$/.test(base)) return {};
  return { baseUrl: base.replace(/\/api\/v3\/?$/, '/api') };
}

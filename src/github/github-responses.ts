import { z } from 'zod';
import type {
  ActionsCacheInfo,
  CommentInfo,
  LineRange,
  PullInfo,
  RepoInfo,
  RepoRole,
  ReviewCommentInfo,
  ReviewInfo,
} from './github-api.ts';
import { roleRank } from './trust/authorize-actor.ts';

/** The few fields of GitHub's response bodies the use cases read; everything else passes through unread. */
const user = z.object({ login: z.string(), type: z.string() }).loose().nullish();

export const repoResponse = z
  .object({
    full_name: z.string(),
    default_branch: z.string(),
    private: z.boolean(),
    clone_url: z.string(),
    html_url: z.string(),
  })
  .loose()
  .transform(
    (r): RepoInfo => ({
      fullName: r.full_name,
      defaultBranch: r.default_branch,
      private: r.private,
      cloneUrl: r.clone_url,
      htmlUrl: r.html_url,
    }),
  );

/** `role_name` is the precise role (`triage`, `maintain`); `permission` is the legacy coarse one. */
export const permissionResponse = z
  .object({ permission: z.string(), role_name: z.string().optional() })
  .loose()
  .transform((r): RepoRole => {
    const name = r.role_name ?? r.permission;
    return Object.hasOwn(roleRank, name) ? (name as RepoRole) : 'none';
  });

export const membershipResponse = z.object({ state: z.string() }).loose();

export const contentResponse = z
  .object({ type: z.string(), content: z.string().optional(), encoding: z.string().optional() })
  .loose();

export const refResponse = z.object({ object: z.object({ sha: z.string() }).loose() }).loose();

export const commentResponse = z
  .object({
    id: z.number(),
    body: z.string().nullish(),
    html_url: z.string(),
    user,
    created_at: z.string(),
    updated_at: z.string(),
    node_id: z.string().optional(),
  })
  .loose()
  .transform(
    (c): CommentInfo => ({
      id: c.id,
      body: c.body ?? '',
      htmlUrl: c.html_url,
      user: c.user ? { login: c.user.login, type: c.user.type } : undefined,
      createdAt: c.created_at,
      updatedAt: c.updated_at,
      ...(c.node_id === undefined ? {} : { nodeId: c.node_id }),
    }),
  );

/** The answer to {@link LAST_EDITED_QUERY}. */
export const lastEditedResponse = z
  .object({
    data: z
      .object({ node: z.object({ lastEditedAt: z.string().nullable() }).loose().nullable() })
      .loose()
      .nullable()
      .optional(),
    errors: z.array(z.object({ message: z.string() }).loose()).optional(),
  })
  .loose();

/** GraphQL: when a comment (by node id) was last edited; `lastEditedAt` is null until an edit. */
export const LAST_EDITED_QUERY =
  'query($id: ID!) { node(id: $id) { ... on IssueComment { lastEditedAt } ... on PullRequestReviewComment { lastEditedAt } } }';

export const reviewResponse = z
  .object({
    id: z.number(),
    state: z.string(),
    body: z.string().nullish(),
    commit_id: z.string().nullish(),
    user,
    submitted_at: z.string().nullish(),
  })
  .loose()
  .transform(
    (r): ReviewInfo => ({
      id: r.id,
      state: r.state,
      body: r.body ?? '',
      commitId: r.commit_id ?? undefined,
      user: r.user ? { login: r.user.login, type: r.user.type } : undefined,
      submittedAt: r.submitted_at ?? undefined,
    }),
  );

const branch = z
  .object({
    ref: z.string(),
    sha: z.string(),
    repo: z.object({ full_name: z.string(), clone_url: z.string() }).loose().nullish(),
  })
  .loose();

export const pullResponse = z
  .object({
    number: z.number(),
    html_url: z.string(),
    state: z.enum(['open', 'closed']),
    head: branch,
    base: branch,
    maintainer_can_modify: z.boolean().nullish(),
  })
  .loose()
  .transform(
    (p): PullInfo => ({
      number: p.number,
      htmlUrl: p.html_url,
      state: p.state,
      headSha: p.head.sha,
      headRef: p.head.ref,
      headRepoFullName: p.head.repo?.full_name,
      headCloneUrl: p.head.repo?.clone_url,
      baseRef: p.base.ref,
      baseSha: p.base.sha,
      maintainerCanModify: p.maintainer_can_modify ?? false,
      fromFork: p.head.repo?.full_name !== p.base.repo?.full_name,
    }),
  );

export const checkRunResponse = z.object({ id: z.number(), html_url: z.string().nullish() }).loose();

/** A check run's status and conclusion (`GET …/check-runs/{id}`). */
export const checkRunStateResponse = z
  .object({ status: z.string(), conclusion: z.string().nullish() })
  .loose()
  .transform((run) => ({ status: run.status, conclusion: run.conclusion ?? null }));

const line = z.number().int().positive().nullish();
const side = z
  .enum(['LEFT', 'RIGHT'])
  .nullish()
  .catch(undefined)
  .transform((value) => value ?? undefined);

function rangeOf(start: number | null | undefined, end: number | null | undefined): LineRange | undefined {
  if (end == null) return undefined;
  return { start: start != null && start <= end ? start : end, end };
}

/**
 * A review comment (`pull-request-review-comment`, `review-comment`, or the `comment` of a
 * `pull_request_review_comment` webhook). Older payloads carry no line fields: they read as undefined.
 */
export const reviewCommentResponse = z
  .object({
    id: z.number(),
    body: z.string().nullish(),
    user,
    path: z.string(),
    diff_hunk: z.string().nullish(),
    line,
    start_line: line,
    original_line: line,
    original_start_line: line,
    side,
    start_side: side,
    html_url: z.string().nullish(),
    in_reply_to_id: z.number().nullish(),
    created_at: z.string().nullish(),
    updated_at: z.string().nullish(),
  })
  .loose()
  .transform(
    (c): ReviewCommentInfo => ({
      ...(c.created_at ? { createdAt: c.created_at } : {}),
      ...(c.updated_at ? { updatedAt: c.updated_at } : {}),
      id: c.id,
      body: c.body ?? '',
      user: c.user ? { login: c.user.login, type: c.user.type } : undefined,
      path: c.path,
      lines: rangeOf(c.start_line, c.line),
      originalLines: rangeOf(c.original_start_line, c.original_line),
      side: c.side,
      startSide: c.start_side,
      diffHunk: c.diff_hunk ?? '',
      htmlUrl: c.html_url ?? undefined,
      inReplyToId: c.in_reply_to_id ?? undefined,
    }),
  );

/** A page of `GET /repos/{owner}/{repo}/actions/caches`; GitHub's description makes every field of an entry optional. */
export const actionsCacheListResponse = z
  .object({
    total_count: z.number(),
    actions_caches: z.array(
      z
        .object({
          id: z.number().optional(),
          key: z.string().optional(),
          ref: z.string().optional(),
          created_at: z.string().optional(),
          size_in_bytes: z.number().optional(),
        })
        .loose(),
    ),
  })
  .loose()
  .transform((r) => ({
    /** How many entries the page held, those without an id or key included. */
    listed: r.actions_caches.length,
    entries: r.actions_caches.flatMap((c): ActionsCacheInfo[] =>
      c.id === undefined || c.key === undefined
        ? []
        : [{ id: c.id, key: c.key, ref: c.ref ?? '', createdAt: c.created_at ?? '', sizeBytes: c.size_in_bytes ?? 0 }],
    ),
  }));

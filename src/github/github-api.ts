/**
 * The narrow view of GitHub's REST API that the use cases need. `createGitHubApi` builds it on
 * any Octokit (the Action's, Probot's, or a plain `@octokit/core` one), so one set of use cases
 * serves both front ends. Every method maps to one REST operation, named beside it.
 */

export interface RepoRef {
  owner: string;
  repo: string;
}

/** A GitHub account as the REST API and webhooks show it (an author, a webhook's `sender`). */
export interface GitHubUser {
  login: string;
  /** `User`, `Bot`, `Organization` (or `Mannequin`), as GitHub reports it. */
  type: string;
}

/** A comment on an issue or pull request page, or on lines of a pull request's diff (a review comment). */
export type CommentRef = { kind: 'issue_comment'; commentId: number } | { kind: 'review_comment'; commentId: number };

/** A repository role, from weakest to strongest (the collaborator permission API's `role_name`). */
export type RepoRole = 'none' | 'read' | 'triage' | 'write' | 'maintain' | 'admin';

export interface RepoInfo {
  fullName: string;
  defaultBranch: string;
  private: boolean;
  /** Clone URL over HTTPS. */
  cloneUrl: string;
  htmlUrl: string;
}

export interface PullInfo {
  number: number;
  htmlUrl: string;
  state: 'open' | 'closed';
  headSha: string;
  headRef: string;
  /** `owner/name` of the head repository; undefined when the fork was deleted. */
  headRepoFullName: string | undefined;
  headCloneUrl: string | undefined;
  baseRef: string;
  baseSha: string;
  maintainerCanModify: boolean;
  /** True when the head repository is not the base repository. */
  fromFork: boolean;
}

export interface CommentInfo {
  id: number;
  body: string;
  htmlUrl: string;
  user: GitHubUser | undefined;
  createdAt: string;
  updatedAt: string;
  /** GitHub's global node id (`node_id`), for GraphQL. */
  nodeId?: string;
}

export interface ReviewInfo {
  id: number;
  state: string;
  body: string;
  commitId: string | undefined;
  user: GitHubUser | undefined;
  submittedAt: string | undefined;
}

/** Lines `start`…`end` of a file (one line: `start === end`). */
export interface LineRange {
  start: number;
  end: number;
}

/** A comment on lines of a pull request's diff (a review comment), with where it was written. */
export interface ReviewCommentInfo {
  id: number;
  body: string;
  user: GitHubUser | undefined;
  path: string;
  /** The commented lines on the comment's current commit (`start_line`…`line`); undefined when outdated. */
  lines: LineRange | undefined;
  /** The commented lines on the commit it was written on (`original_start_line`…`original_line`). */
  originalLines: LineRange | undefined;
  /** The side of the diff of the last line (`side`): `RIGHT` the new file, `LEFT` the old one. */
  side: 'LEFT' | 'RIGHT' | undefined;
  /** The side of the first line of a multi-line comment (`start_side`). */
  startSide: 'LEFT' | 'RIGHT' | undefined;
  /** The diff hunk the comment was written on (text of the pull request: untrusted). */
  diffHunk: string;
  htmlUrl: string | undefined;
  /** The comment this one replies to, when it is a reply in a thread. */
  inReplyToId: number | undefined;
  /** When it was written (`created_at`, ISO 8601); absent where a response left it out. */
  createdAt?: string;
  /** When it was last changed (`updated_at`). */
  updatedAt?: string;
}

/** A comment of a review thread as GraphQL gives it: who wrote it and who put 👎 on it. */
export interface ReviewThreadComment {
  /** The REST id of the review comment (`databaseId`). */
  id: number;
  body: string;
  author: string | undefined;
  /** Logins that reacted with 👎 (`THUMBS_DOWN`), at most 20. */
  thumbsDownBy: string[];
}

/** A review thread of a pull request (GraphQL `PullRequestReviewThread`): its comments, first the one that opened it. */
export interface ReviewThreadInfo {
  /** The thread's node id (what `resolveReviewThread` takes). */
  id: string;
  isResolved: boolean;
  /** Who resolved it, while it is resolved. */
  resolvedBy: string | undefined;
  comments: ReviewThreadComment[];
}

/** One file of a pull request's diff. */
export interface PullFile {
  path: string;
  /** `added`, `removed`, `modified`, `renamed`, … */
  status: string;
  /** The file's hunks as GitHub shows them; undefined when it shows none (binary, too large). */
  patch: string | undefined;
}

/** How one commit relates to another, and the files between them (`GET …/compare/{base}...{head}`). */
export interface CommitComparison {
  /** `ahead`: head descends from base; `identical`; `behind` or `diverged`: it does not. */
  status: 'ahead' | 'behind' | 'identical' | 'diverged';
  /**
   * The files changed from the merge base to head (their paths, and a renamed file's old path too);
   * undefined when GitHub lists too many to be sure (it lists at most 300).
   */
  files: string[] | undefined;
}

/** A review comment on the new side (`RIGHT`) of a pull request's diff, on `line` or `startLine`..`line`. */
export interface NewReviewComment {
  path: string;
  body: string;
  line: number;
  startLine?: number;
}

export type CheckRunStatus = 'queued' | 'in_progress' | 'completed';
export type CheckRunConclusion = 'success' | 'failure' | 'cancelled' | 'timed_out' | 'neutral' | 'action_required';

export interface CheckRunAnnotation {
  path: string;
  startLine: number;
  endLine: number;
  level: 'notice' | 'warning' | 'failure';
  message: string;
  title?: string;
}

export interface CheckRunOutput {
  title: string;
  /** At most 65,535 characters. */
  summary: string;
  /** At most 65,535 characters. */
  text?: string;
  /** At most 50 per request. */
  annotations?: CheckRunAnnotation[];
}

/** A button on a check run (`check_run.requested_action`); label ≤ 20, description ≤ 40, identifier ≤ 20 characters. */
export interface CheckRunAction {
  label: string;
  description: string;
  identifier: string;
}

export interface CreateCheckRun {
  name: string;
  headSha: string;
  status: CheckRunStatus;
  startedAt?: string;
  /** With `status: 'completed'`. */
  conclusion?: CheckRunConclusion;
  completedAt?: string;
  externalId?: string;
  detailsUrl?: string;
  output?: CheckRunOutput;
  actions?: CheckRunAction[];
}

export interface UpdateCheckRun {
  status?: CheckRunStatus;
  conclusion?: CheckRunConclusion;
  completedAt?: string;
  output?: CheckRunOutput;
  actions?: CheckRunAction[];
}

export interface CheckRunInfo {
  id: number;
  htmlUrl: string;
}

/** What a reaction goes on: a comment, or the issue (its body). */
export type ReactionTarget = CommentRef | { kind: 'issue'; issueNumber: number };

/** A page read with a conditional request: `notModified` when the ETag still matched (costs no rate limit). */
export interface Conditional<T> {
  notModified: boolean;
  etag: string | undefined;
  data: T;
}

export interface GitHubApi {
  /** GET /repos/{owner}/{repo} */
  getRepo(ref: RepoRef): Promise<RepoInfo>;
  /** GET /repos/{owner}/{repo}/collaborators/{username}/permission — `none` when not a collaborator. */
  getPermission(ref: RepoRef, username: string): Promise<RepoRole>;
  /** GET /orgs/{org}/teams/{team_slug}/memberships/{username} — active members only. */
  isTeamMember(org: string, teamSlug: string, username: string): Promise<boolean>;
  /** GET /repos/{owner}/{repo}/contents/{path}?ref= — undefined when the file does not exist. */
  getFileText(ref: RepoRef, path: string, gitRef: string): Promise<string | undefined>;
  /** GET /repos/{owner}/{repo}/git/ref/heads/{branch} — undefined when the branch does not exist. */
  getBranchSha(ref: RepoRef, branch: string): Promise<string | undefined>;

  /** POST /repos/{owner}/{repo}/issues/comments/{id}/reactions (or the review comment / issue variant). */
  addReaction(ref: RepoRef, target: ReactionTarget, content: 'eyes' | 'rocket' | '+1' | 'confused'): Promise<void>;
  /** POST /repos/{owner}/{repo}/issues/{issue_number}/comments */
  createComment(ref: RepoRef, issueNumber: number, body: string): Promise<CommentInfo>;
  /** PATCH /repos/{owner}/{repo}/issues/comments/{comment_id} */
  updateComment(ref: RepoRef, commentId: number, body: string): Promise<void>;
  /** GET /repos/{owner}/{repo}/issues/comments/{comment_id} */
  getComment(ref: RepoRef, commentId: number): Promise<CommentInfo>;
  /**
   * When the comment was last edited, as GitHub records an edit (GraphQL `IssueComment.lastEditedAt`,
   * `POST /graphql`): null when it never was. REST has no such field (`updated_at` can move without an
   * edit). Optional: where it is absent, edits are judged by the timestamps.
   */
  commentLastEditedAt?(ref: RepoRef, comment: CommentInfo): Promise<string | null>;
  /** GET /repos/{owner}/{repo}/issues/{issue_number}/comments?since=&per_page=100 with If-None-Match. */
  listComments(
    ref: RepoRef,
    issueNumber: number,
    options?: { since?: string; etag?: string },
  ): Promise<Conditional<CommentInfo[]>>;

  /** POST /repos/{owner}/{repo}/check-runs */
  createCheckRun(ref: RepoRef, run: CreateCheckRun): Promise<CheckRunInfo>;
  /** PATCH /repos/{owner}/{repo}/check-runs/{check_run_id} */
  updateCheckRun(ref: RepoRef, checkRunId: number, update: UpdateCheckRun): Promise<void>;
  /** GET /repos/{owner}/{repo}/check-runs/{check_run_id}: its status, and its conclusion once completed. */
  getCheckRun(ref: RepoRef, checkRunId: number): Promise<{ status: string; conclusion: string | null }>;

  /** GET /repos/{owner}/{repo}/pulls/{pull_number} */
  getPull(ref: RepoRef, number: number): Promise<PullInfo>;
  /** GET /repos/{owner}/{repo}/pulls?head=owner:branch&state=open — the open PR from that branch, if any. */
  findOpenPull(ref: RepoRef, headOwner: string, headBranch: string): Promise<PullInfo | undefined>;
  /** POST /repos/{owner}/{repo}/pulls */
  createPull(
    ref: RepoRef,
    pull: { title: string; head: string; base: string; body: string; draft?: boolean },
  ): Promise<PullInfo>;
  /** POST /repos/{owner}/{repo}/pulls/{pull_number}/requested_reviewers */
  requestReviewers(ref: RepoRef, number: number, reviewers: { users: string[]; teams: string[] }): Promise<void>;
  /** GET /repos/{owner}/{repo}/pulls/{pull_number}/reviews?per_page=100 with If-None-Match. */
  listReviews(ref: RepoRef, number: number, options?: { etag?: string }): Promise<Conditional<ReviewInfo[]>>;
  /** GET /repos/{owner}/{repo}/pulls/{pull_number}/reviews/{review_id}/comments?per_page=100 — the first 100. */
  listReviewComments(ref: RepoRef, number: number, reviewId: number): Promise<ReviewCommentInfo[]>;
  /**
   * GET /repos/{owner}/{repo}/pulls/{pull_number}/comments?since=…&per_page=100 with If-None-Match:
   * the pull request's review comments (replies in threads included) changed since `since`, oldest
   * first; the first 100.
   */
  listPullComments(
    ref: RepoRef,
    number: number,
    options?: { since?: string; etag?: string },
  ): Promise<Conditional<ReviewCommentInfo[]>>;
  /** POST /repos/{owner}/{repo}/pulls/{pull_number}/comments/{comment_id}/replies — a reply in the comment's thread. */
  replyToReviewComment(ref: RepoRef, number: number, commentId: number, body: string): Promise<ReviewCommentInfo>;

  /**
   * The pull request's review threads with their comments (GraphQL `reviewThreads`, every page of
   * 100 threads; each thread's first 50 comments).
   */
  listReviewThreads(ref: RepoRef, number: number): Promise<ReviewThreadInfo[]>;
  /** Marks a review thread resolved (GraphQL `resolveReviewThread`). */
  resolveReviewThread(ref: RepoRef, threadId: string): Promise<void>;

  /** GET /repos/{owner}/{repo}/compare/{base}...{head} — how head relates to base, and the files changed. */
  compareCommits(ref: RepoRef, base: string, head: string): Promise<CommitComparison>;
  /** GET /repos/{owner}/{repo}/pulls/{pull_number}/files?per_page=100 — every page (GitHub lists at most 3,000 files). */
  listPullFiles(ref: RepoRef, number: number): Promise<PullFile[]>;
  /** POST /repos/{owner}/{repo}/pulls/{pull_number}/reviews — a submitted `COMMENT` review on `commitId`. */
  createReview(
    ref: RepoRef,
    number: number,
    review: { commitId: string; body: string; comments: NewReviewComment[] },
  ): Promise<{ id: number; htmlUrl: string }>;

  /** GET /repos/{owner}/{repo}/actions/runs/{run_id} — undefined when there is no such run. */
  getWorkflowRun(ref: RepoRef, runId: number): Promise<{ id: number; status: string } | undefined>;
  /** POST /repos/{owner}/{repo}/actions/runs/{run_id}/cancel */
  cancelWorkflowRun(ref: RepoRef, runId: number): Promise<void>;
  /**
   * GET /repos/{owner}/{repo}/actions/caches?key=<prefix>&sort=created_at&direction=asc — the
   * repository's Actions cache entries whose key starts with `keyPrefix`, on every branch, oldest
   * first (every page of 100, at most 100 pages). A workflow token needs `actions: read`.
   */
  listActionsCaches(ref: RepoRef, keyPrefix: string): Promise<ActionsCacheInfo[]>;
}

/** An Actions cache entry as the REST API lists it (its content is not read). */
export interface ActionsCacheInfo {
  id: number;
  key: string;
  /** The Git ref whose runs may restore it, e.g. `refs/heads/main`, `refs/pull/7/merge`. */
  ref: string;
  /** ISO 8601. */
  createdAt: string;
  sizeBytes: number;
}

/** The part of any Octokit that `createGitHubApi` uses: `octokit.request(route, parameters)`. */
export interface OctokitLike {
  request(
    route: string,
    parameters?: Record<string, unknown>,
  ): Promise<{ status: number; data: unknown; headers: Record<string, string | number | undefined> }>;
}

import type {
  CheckRunAction,
  CheckRunAnnotation,
  CheckRunConclusion,
  CheckRunStatus,
  RepoRef,
  RepoRole,
  ReviewCommentInfo,
} from '../github-api.ts';
import { IdCounter } from './id-counter.ts';

/** A GitHub account as the stand-in knows it. */
export interface MemoryUser {
  login: string;
  type: string;
}

/** An issue or a pull request (a pull request is an issue with `pull` set). */
export interface MemoryIssue {
  number: number;
  title: string;
  body: string;
  user: MemoryUser;
  state: 'open' | 'closed';
  pull?: MemoryPullFields;
}

/** What a pull request has beyond an issue. */
export interface MemoryPullFields {
  headRef: string;
  /** The head commit when the head is not a branch of the repository (a fork); else the branch is read live. */
  headSha: string;
  baseRef: string;
  /** Owner of the head repository; undefined when the fork was deleted. */
  headOwner: string | undefined;
  headCloneUrl: string | undefined;
  fromFork: boolean;
  maintainerCanModify: boolean;
  draft: boolean;
  requestedReviewers: string[];
  requestedTeams: string[];
}

export interface MemoryComment {
  id: number;
  issueNumber: number;
  body: string;
  user: MemoryUser;
  createdAt: string;
  updatedAt: string;
}

export interface MemoryReviewComment {
  id: number;
  pullNumber: number;
  body: string;
  user: MemoryUser;
  /** Where it was written (file, lines, side, hunk); a comment seeded without one is on line 1 of README.md. */
  location?: ReviewCommentLocation;
  /** The review it belongs to. */
  reviewId?: number;
  /** The comment it replies to (a reply in a thread). */
  inReplyToId?: number;
  createdAt: string;
  /** The commit it is on now, and the one it was written on (unset when the seed gives none). */
  commitId?: string;
  originalCommitId?: string;
}

/** The place of a review comment in the diff. */
export type ReviewCommentLocation = Pick<
  ReviewCommentInfo,
  'path' | 'lines' | 'originalLines' | 'side' | 'startSide' | 'diffHunk'
>;

export interface MemoryReview {
  id: number;
  pullNumber: number;
  state: string;
  body: string;
  commitId: string | undefined;
  user: MemoryUser;
  submittedAt: string;
}

export interface MemoryCheckRun {
  id: number;
  name: string;
  headSha: string;
  status: CheckRunStatus;
  conclusion: CheckRunConclusion | undefined;
  startedAt: string | undefined;
  completedAt: string | undefined;
  externalId: string | undefined;
  detailsUrl: string | undefined;
  /** As GitHub keeps it: title, summary and text replaced when given, annotations accumulated. */
  output: { title: string | undefined; summary: string | undefined; text: string | undefined };
  annotations: CheckRunAnnotation[];
  actions: CheckRunAction[];
  /** Who created it. */
  creator: MemoryUser;
  /** Number of updates applied. */
  updates: number;
}

export interface MemoryReaction {
  id: number;
  target: { kind: 'issue_comment' | 'review_comment' | 'issue'; id: number };
  content: string;
  user: MemoryUser;
  createdAt: string;
}

/** A GitHub Actions workflow run (for cancelling the Action's run). */
export interface MemoryWorkflowRun {
  id: number;
  /** The workflow's name (default `agent`). */
  name: string;
  /** The event that started it (default `issue_comment`). */
  event: string;
  status: string;
  conclusion: string | undefined;
  /** The branch and commit it runs on (default: the default branch; its sha when the seed gives one). */
  headBranch: string;
  headSha: string | undefined;
  createdAt: string;
  updatedAt: string;
  cancelRequested: boolean;
}

/** GitHub's timestamp format: ISO 8601 without milliseconds. */
export function isoSeconds(date: Date): string {
  return `${date.toISOString().slice(0, 19)}Z`;
}

/**
 * Everything the in-memory GitHub knows about its one repository: seeded (`addIssue`, `addPull`,
 * `addComment`, …), changed by the API, and inspected afterwards (`comments`, `checkRuns`, …).
 * Ids are shared by every kind and only increase, also past seeded ids.
 */
export class MemoryGitHubState {
  readonly repo: RepoRef;
  readonly defaultBranch: string;
  /** The login agent-mux posts as. */
  readonly selfLogin: string;
  /** Clock for timestamps. */
  now: () => Date = () => new Date();
  readonly issues = new Map<number, MemoryIssue>();
  readonly commentsById = new Map<number, MemoryComment>();
  readonly reviewComments = new Map<number, MemoryReviewComment>();
  readonly reviews: MemoryReview[] = [];
  readonly checkRunsById = new Map<number, MemoryCheckRun>();
  readonly reactions: MemoryReaction[] = [];
  readonly workflowRuns = new Map<number, MemoryWorkflowRun>();
  /** Login (lower case) → role; the repository owner is an admin. */
  readonly roles = new Map<string, RepoRole>();
  /** `org/slug` (lower case) → active member logins (lower case). */
  readonly teams = new Map<string, Set<string>>();
  readonly #ids: IdCounter;

  /** `ids`: a counter shared with other repositories' states (default: this state's own, from 1). */
  constructor(options: { repo: RepoRef; defaultBranch: string; selfLogin: string; ids?: IdCounter }) {
    this.repo = options.repo;
    this.defaultBranch = options.defaultBranch;
    this.selfLogin = options.selfLogin;
    this.#ids = options.ids ?? new IdCounter();
  }

  /** A fresh id, greater than every id given or seeded so far. */
  nextId(): number {
    return this.#ids.next();
  }

  /** Makes later ids greater than a seeded one. */
  reserveId(id: number): number {
    return this.#ids.reserve(id);
  }

  timestamp(): string {
    return isoSeconds(this.now());
  }

  /** agent-mux's own user. */
  get self(): MemoryUser {
    return { login: this.selfLogin, type: 'Bot' };
  }

  /** A user given by login is a `User` unless the login ends in `[bot]`. */
  user(login: string, type?: string): MemoryUser {
    return { login, type: type ?? (login.endsWith('[bot]') ? 'Bot' : 'User') };
  }

  setRole(login: string, role: RepoRole): void {
    this.roles.set(login.toLowerCase(), role);
  }

  roleOf(login: string): RepoRole {
    if (login.toLowerCase() === this.repo.owner.toLowerCase()) return 'admin';
    return this.roles.get(login.toLowerCase()) ?? 'none';
  }

  addTeam(org: string, slug: string, members: readonly string[]): void {
    this.teams.set(`${org}/${slug}`.toLowerCase(), new Set(members.map((m) => m.toLowerCase())));
  }

  /** The next free issue number. */
  nextNumber(): number {
    return Math.max(0, ...this.issues.keys()) + 1;
  }

  addIssue(options: { number?: number; title: string; body?: string; user: string | MemoryUser }): MemoryIssue {
    const issue: MemoryIssue = {
      number: options.number ?? this.nextNumber(),
      title: options.title,
      body: options.body ?? '',
      user: typeof options.user === 'string' ? this.user(options.user) : options.user,
      state: 'open',
    };
    this.issues.set(issue.number, issue);
    return issue;
  }

  addPull(
    options: {
      number?: number;
      title: string;
      body?: string;
      user: string | MemoryUser;
    } & Partial<MemoryPullFields> & {
        headRef: string;
        headSha: string;
      },
  ): MemoryIssue {
    const issue = this.addIssue(options);
    const fromFork = options.fromFork ?? false;
    issue.pull = {
      headRef: options.headRef,
      headSha: options.headSha,
      baseRef: options.baseRef ?? this.defaultBranch,
      headOwner: 'headOwner' in options ? options.headOwner : this.repo.owner,
      headCloneUrl: options.headCloneUrl,
      fromFork,
      maintainerCanModify: options.maintainerCanModify ?? false,
      draft: options.draft ?? false,
      requestedReviewers: [],
      requestedTeams: [],
    };
    return issue;
  }

  /** Adds an issue comment (with the given id, e.g. a payload's, or a fresh one). */
  addComment(issueNumber: number, options: { id?: number; body: string; user: string | MemoryUser }): MemoryComment {
    const now = this.timestamp();
    const comment: MemoryComment = {
      id: options.id === undefined ? this.nextId() : this.reserveId(options.id),
      issueNumber,
      body: options.body,
      user: typeof options.user === 'string' ? this.user(options.user) : options.user,
      createdAt: now,
      updatedAt: now,
    };
    this.commentsById.set(comment.id, comment);
    return comment;
  }

  addReviewComment(
    pullNumber: number,
    options: {
      id?: number;
      body: string;
      user: string | MemoryUser;
      location?: ReviewCommentLocation;
      reviewId?: number;
      inReplyToId?: number;
      commitId?: string;
      originalCommitId?: string;
    },
  ): MemoryReviewComment {
    const id = options.id === undefined ? this.nextId() : this.reserveId(options.id);
    const user = typeof options.user === 'string' ? this.user(options.user) : options.user;
    const comment: MemoryReviewComment = { id, pullNumber, body: options.body, user, createdAt: this.timestamp() };
    if (options.location !== undefined) comment.location = options.location;
    if (options.reviewId !== undefined) comment.reviewId = options.reviewId;
    if (options.inReplyToId !== undefined) comment.inReplyToId = options.inReplyToId;
    if (options.commitId !== undefined) comment.commitId = options.commitId;
    if (options.originalCommitId !== undefined) comment.originalCommitId = options.originalCommitId;
    this.reviewComments.set(id, comment);
    return comment;
  }

  addReview(
    pullNumber: number,
    options: { id?: number; state: string; body?: string; user: string | MemoryUser; commitId?: string },
  ): MemoryReview {
    const review: MemoryReview = {
      id: options.id === undefined ? this.nextId() : this.reserveId(options.id),
      pullNumber,
      state: options.state,
      body: options.body ?? '',
      commitId: options.commitId,
      user: typeof options.user === 'string' ? this.user(options.user) : options.user,
      submittedAt: this.timestamp(),
    };
    this.reviews.push(review);
    return review;
  }

  addWorkflowRun(
    options: Partial<Pick<MemoryWorkflowRun, 'id' | 'name' | 'event' | 'status' | 'headBranch' | 'headSha'>> & {
      conclusion?: string | null;
    } = {},
  ): MemoryWorkflowRun {
    const id = options.id === undefined ? this.nextId() : this.reserveId(options.id);
    const now = this.timestamp();
    const run: MemoryWorkflowRun = {
      id,
      name: options.name ?? 'agent',
      event: options.event ?? 'issue_comment',
      status: options.status ?? 'in_progress',
      conclusion: options.conclusion ?? undefined,
      headBranch: options.headBranch ?? this.defaultBranch,
      headSha: options.headSha,
      createdAt: now,
      updatedAt: now,
      cancelRequested: false,
    };
    this.workflowRuns.set(id, run);
    return run;
  }

  /** The comments on an issue, oldest first. */
  comments(issueNumber?: number): MemoryComment[] {
    return [...this.commentsById.values()].filter((c) => issueNumber === undefined || c.issueNumber === issueNumber);
  }

  /**
   * A user's reaction on a target, as GitHub keeps it: once per user and content (`created` false
   * when it was there already).
   */
  react(
    target: MemoryReaction['target'],
    content: string,
    user: MemoryUser,
  ): { reaction: MemoryReaction; created: boolean } {
    const same = this.reactions.find(
      (r) =>
        r.target.kind === target.kind &&
        r.target.id === target.id &&
        r.content === content &&
        r.user.login.toLowerCase() === user.login.toLowerCase(),
    );
    if (same !== undefined) return { reaction: same, created: false };
    const reaction: MemoryReaction = {
      id: this.nextId(),
      target: { ...target },
      content,
      user,
      createdAt: this.timestamp(),
    };
    this.reactions.push(reaction);
    return { reaction, created: true };
  }

  /** Stores a check run as created: queued until `applyCheckRun` says otherwise. */
  addCheckRun(
    options: Pick<MemoryCheckRun, 'name' | 'headSha' | 'creator'> &
      Partial<Pick<MemoryCheckRun, 'startedAt' | 'externalId' | 'detailsUrl' | 'actions'>>,
  ): MemoryCheckRun {
    const run: MemoryCheckRun = {
      id: this.nextId(),
      name: options.name,
      headSha: options.headSha,
      status: 'queued',
      conclusion: undefined,
      startedAt: options.startedAt ?? this.timestamp(),
      completedAt: undefined,
      externalId: options.externalId,
      detailsUrl: options.detailsUrl,
      output: { title: undefined, summary: undefined, text: undefined },
      annotations: [],
      actions: options.actions ?? [],
      creator: options.creator,
      updates: 0,
    };
    this.checkRunsById.set(run.id, run);
    return run;
  }

  /** Marks a workflow run cancelled as GitHub does on a cancel request. */
  cancelWorkflowRun(run: MemoryWorkflowRun): void {
    run.cancelRequested = true;
    run.status = 'completed';
    run.conclusion = 'cancelled';
    run.updatedAt = this.timestamp();
  }

  /** The check runs, in creation order. */
  checkRuns(): MemoryCheckRun[] {
    return [...this.checkRunsById.values()];
  }

  /** The pull requests, oldest first. */
  pulls(): (MemoryIssue & { pull: MemoryPullFields })[] {
    return [...this.issues.values()].filter((i): i is MemoryIssue & { pull: MemoryPullFields } => i.pull !== undefined);
  }
}

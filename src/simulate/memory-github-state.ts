import type { RepoRef, RepoRole } from '../github/github-api.ts';
import { IdCounter } from './id-counter.ts';
import type {
  MemoryActionsCache,
  MemoryCheckRun,
  MemoryComment,
  MemoryIssue,
  MemoryPull,
  MemoryPullFields,
  MemoryReaction,
  MemoryReview,
  MemoryReviewComment,
  MemoryUser,
  MemoryWorkflowRun,
  ReviewCommentLocation,
} from './memory-records.ts';
import { type TeamMember, TeamRegistry } from './team-registry.ts';

/** The record types, where callers have always found them. */
export type * from './memory-records.ts';

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
  /** The review threads marked resolved (by the id of the comment that opened each) and who resolved them. */
  readonly resolvedThreads = new Map<number, string>();
  readonly workflowRuns = new Map<number, MemoryWorkflowRun>();
  /** The Actions cache entries seeded by `addActionsCache`, oldest first. */
  readonly actionsCacheEntries: MemoryActionsCache[] = [];
  /**
   * Where the repository's Actions cache entries are read instead of `actionsCacheEntries`: a cache
   * service beside this state (the fake GitHub links its stand-in so).
   */
  actionsCacheSource: (() => MemoryActionsCache[]) | undefined;
  /** Login (lower case) → role; the repository owner is an admin. */
  readonly roles = new Map<string, RepoRole>();
  /** The teams of every organisation (they are not the repository's: see `TeamRegistry`). */
  readonly teams: TeamRegistry;
  readonly #ids: IdCounter;

  /**
   * `ids`: a counter shared with other repositories' states (default: this state's own, from 1);
   * `teams`: a registry shared with them (default: this state's own).
   */
  constructor(options: {
    repo: RepoRef;
    defaultBranch: string;
    selfLogin: string;
    ids?: IdCounter;
    teams?: TeamRegistry;
  }) {
    this.repo = options.repo;
    this.defaultBranch = options.defaultBranch;
    this.selfLogin = options.selfLogin;
    this.#ids = options.ids ?? new IdCounter();
    this.teams = options.teams ?? new TeamRegistry();
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

  /** Adds a team of an organisation; members given by login are active `member`s. */
  addTeam(org: string, slug: string, members: readonly (string | TeamMember)[]): void {
    this.teams.add(org, slug, members);
  }

  /** The next free issue number. */
  nextNumber(): number {
    return Math.max(0, ...this.issues.keys()) + 1;
  }

  /** Adds an open issue (numbered after the existing ones unless given a number), created now. */
  addIssue(options: { number?: number; title: string; body?: string; user: string | MemoryUser }): MemoryIssue {
    const now = this.timestamp();
    const issue: MemoryIssue = {
      number: options.number ?? this.nextNumber(),
      title: options.title,
      body: options.body ?? '',
      user: typeof options.user === 'string' ? this.user(options.user) : options.user,
      state: 'open',
      createdAt: now,
      updatedAt: now,
    };
    this.issues.set(issue.number, issue);
    return issue;
  }

  /**
   * Adds an open pull request: the base is the default branch and the head a branch of this
   * repository (its owner's) unless given; no review is requested yet.
   */
  addPull(
    options: {
      number?: number;
      title: string;
      body?: string;
      user: string | MemoryUser;
    } & Partial<Omit<MemoryPullFields, 'requestedReviewers' | 'requestedTeams'>> & {
        headRef: string;
        headSha: string;
      },
  ): MemoryPull {
    const issue = this.addIssue(options);
    const pull: MemoryPullFields = {
      headRef: options.headRef,
      headSha: options.headSha,
      baseRef: options.baseRef ?? this.defaultBranch,
      headOwner: 'headOwner' in options ? options.headOwner : this.repo.owner,
      headCloneUrl: options.headCloneUrl,
      fromFork: options.fromFork ?? false,
      maintainerCanModify: options.maintainerCanModify ?? false,
      draft: options.draft ?? false,
      requestedReviewers: [],
      requestedTeams: [],
    };
    return Object.assign(issue, { pull });
  }

  /** A pull request by number (undefined for a plain issue or an unknown number). */
  pull(number: number): MemoryPull | undefined {
    const issue = this.issues.get(number);
    return issue !== undefined && isPullRecord(issue) ? issue : undefined;
  }

  /** Adds review requests as GitHub keeps them: each user and team once, in the order first asked. */
  requestReviews(pull: MemoryPullFields, reviewers: { users: readonly string[]; teams: readonly string[] }): void {
    for (const user of reviewers.users) if (!pull.requestedReviewers.includes(user)) pull.requestedReviewers.push(user);
    for (const team of reviewers.teams) if (!pull.requestedTeams.includes(team)) pull.requestedTeams.push(team);
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
  /**
   * The review threads of a pull request in the order they were opened: each opening comment (one
   * that replies to none) with its replies in order.
   */
  reviewThreads(
    pullNumber: number,
  ): { root: MemoryReviewComment; comments: MemoryReviewComment[]; resolvedBy: string | undefined }[] {
    const all = [...this.reviewComments.values()]
      .filter((c) => c.pullNumber === pullNumber)
      .sort((a, b) => a.id - b.id);
    return all
      .filter((c) => c.inReplyToId === undefined)
      .map((root) => ({
        root,
        comments: [root, ...all.filter((c) => c.inReplyToId === root.id)],
        resolvedBy: this.resolvedThreads.get(root.id),
      }));
  }

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

  /** Adds an Actions cache entry (on the default branch unless `ref` says otherwise). */
  addActionsCache(options: { key: string; ref?: string; sizeBytes?: number }): MemoryActionsCache {
    const entry: MemoryActionsCache = {
      id: this.nextId(),
      key: options.key,
      ref: options.ref ?? `refs/heads/${this.defaultBranch}`,
      version: 'memory',
      createdAt: this.timestamp(),
      sizeBytes: options.sizeBytes ?? 0,
    };
    this.actionsCacheEntries.push(entry);
    return entry;
  }

  /** The repository's Actions cache entries whose key starts with `keyPrefix`, oldest first. */
  actionsCaches(keyPrefix = ''): MemoryActionsCache[] {
    return (this.actionsCacheSource?.() ?? this.actionsCacheEntries)
      .filter((e) => e.key.startsWith(keyPrefix))
      .sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id - b.id);
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
  pulls(): MemoryPull[] {
    return [...this.issues.values()].filter(isPullRecord);
  }
}

function isPullRecord(issue: MemoryIssue): issue is MemoryPull {
  return issue.pull !== undefined;
}

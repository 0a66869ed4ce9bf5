import { createHash } from 'node:crypto';
import { IdCounter } from '../../../src/github/simulate/id-counter.ts';
import {
  type MemoryCheckRun,
  type MemoryComment,
  MemoryGitHubState,
  type MemoryWorkflowRun,
} from '../../../src/github/simulate/memory-github-state.ts';
import {
  fakeCheckRunOf,
  fakeCommentOf,
  fakeReactionOf,
  fakeReviewCommentOf,
  fakeReviewOf,
  fakeWorkflowRunOf,
} from './fake-github-views.ts';
import type { GitBacking } from './git-backing.ts';

/** A repository's owner and name. */
export interface RepoRef {
  owner: string;
  repo: string;
}

/** A repository role a collaborator can hold. */
export type FakeRole = 'admin' | 'maintain' | 'write' | 'triage' | 'read';

/** A GitHub account as the fake knows it. */
export interface FakeUser {
  id: number;
  login: string;
  type: 'Bot' | 'User' | 'Organization';
}

/** A user given by login (a `User` unless it ends in `[bot]`) or in full. */
export type UserInput = string | { login: string; type?: FakeUser['type'] };

export interface FakeRepo {
  id: number;
  owner: string;
  repo: string;
  defaultBranch: string;
  private: boolean;
  installationId: number;
  /** Branch name → head sha (used without git backing). */
  branches: Map<string, string>;
  /** `${gitRef}\u0000${path}` → file text (used without git backing). */
  files: Map<string, string>;
}

export interface FakeIssue {
  repoKey: string;
  number: number;
  title: string;
  body: string;
  user: FakeUser;
  state: 'open' | 'closed';
  createdAt: string;
  updatedAt: string;
}

export interface FakePull extends FakeIssue {
  headRef: string;
  headSha: string;
  baseRef: string;
  /** Owner of the head repository (the base owner unless from a fork); undefined when the fork is deleted. */
  headOwner: string | undefined;
  headRepo: string | undefined;
  fromFork: boolean;
  maintainerCanModify: boolean;
  draft: boolean;
  requestedReviewers: string[];
  requestedTeams: string[];
}

export interface FakeComment {
  id: number;
  repoKey: string;
  issueNumber: number;
  body: string;
  user: FakeUser;
  createdAt: string;
  updatedAt: string;
}

export interface FakeReviewComment {
  id: number;
  repoKey: string;
  pullNumber: number;
  body: string;
  path: string;
  user: FakeUser;
  createdAt: string;
  /** The review it belongs to (GitHub makes one for a lone comment too); null when none was given. */
  reviewId: number | null;
  /** The thread's first comment, for a reply. */
  inReplyToId: number | undefined;
  /** The last commented line (`line`), and the first of a multi-line comment (`start_line`). */
  line: number;
  startLine: number | null;
  side: 'LEFT' | 'RIGHT';
  startSide: 'LEFT' | 'RIGHT' | null;
  /** The lines on the commit it was written on; equal to `line`/`startLine` unless set. */
  originalLine: number;
  originalStartLine: number | null;
  diffHunk: string;
  commitId: string;
  originalCommitId: string;
}

/** Where a review comment is written, beyond its path: lines, sides, hunk, commit, review. */
export interface ReviewCommentPlace {
  line?: number;
  startLine?: number;
  side?: 'LEFT' | 'RIGHT';
  startSide?: 'LEFT' | 'RIGHT';
  originalLine?: number;
  originalStartLine?: number;
  diffHunk?: string;
  commitId?: string;
  originalCommitId?: string;
  reviewId?: number;
  inReplyToId?: number;
}

export interface FakeReview {
  id: number;
  repoKey: string;
  pullNumber: number;
  state: 'APPROVED' | 'CHANGES_REQUESTED' | 'COMMENTED' | 'PENDING' | 'DISMISSED';
  body: string;
  user: FakeUser;
  commitId: string;
  submittedAt: string;
}

export interface FakeAnnotation {
  path: string;
  start_line: number;
  end_line: number;
  annotation_level: string;
  message: string;
  title?: string;
  [key: string]: unknown;
}

export interface FakeCheckRun {
  id: number;
  repoKey: string;
  name: string;
  headSha: string;
  status: string;
  conclusion: string | null;
  startedAt: string | null;
  completedAt: string | null;
  externalId: string | null;
  detailsUrl: string | null;
  output: { title: string | null; summary: string | null; text: string | null; annotations: FakeAnnotation[] };
  actions: { label: string; description: string; identifier: string }[];
  /** Who created it (the token's identity). */
  creator: FakeUser;
  /** Number of PATCH requests applied. */
  updates: number;
}

export type ReactionTargetKind = 'issue_comment' | 'review_comment' | 'issue';

export interface FakeReaction {
  id: number;
  repoKey: string;
  target: { kind: ReactionTargetKind; id: number };
  content: string;
  user: FakeUser;
  createdAt: string;
}

export interface FakeWorkflowRun {
  id: number;
  repoKey: string;
  name: string;
  event: string;
  status: string;
  conclusion: string | null;
  headBranch: string;
  headSha: string;
  createdAt: string;
  updatedAt: string;
  cancelRequested: boolean;
}

export interface FakeTeamMember {
  login: string;
  role: 'member' | 'maintainer';
  state: 'active' | 'pending';
}

/** The GitHub App the fake pretends to be (for `GET /app` and installation tokens). */
export interface FakeApp {
  id: number;
  slug: string;
  name: string;
  owner: string;
}

/** A token the fake accepts and whose identity acts. */
export interface FakeToken {
  login: string;
  type: 'Bot' | 'User';
}

/** The key of a repository in the state's maps: `owner/repo`, lower-cased as GitHub compares them. */
export function repoKey(ref: RepoRef): string {
  return `${ref.owner}/${ref.repo}`.toLowerCase();
}

/** A 40-hex-digit sha derived from a seed (stable across runs). */
export function fakeSha(seed: string): string {
  return createHash('sha1').update(seed).digest('hex');
}

/** GitHub's timestamp format: ISO 8601 without milliseconds. */
export function isoSeconds(date: Date): string {
  return `${date.toISOString().slice(0, 19)}Z`;
}

/**
 * Everything the fake GitHub knows: seeded by tests (`addRepo`, `addIssue`, …), changed by requests,
 * and inspected afterwards (`comments`, `checkRuns`, `reactions`, …).
 */
export class FakeGitHubState {
  /** Clock for timestamps; replace to control `created_at`/`updated_at`. */
  now: () => Date = () => new Date();
  /** Requests that counted against the rate limit (a 304 does not). */
  rateLimitedRequests = 0;
  /** The app the fake impersonates. */
  app: FakeApp = { id: 1, slug: 'agent-mux', name: 'agent-mux', owner: 'agent-mux' };
  /** Tokens accepted when the server was started with `tokens` (installation tokens are added here). */
  readonly tokens = new Map<string, FakeToken>();
  readonly git: GitBacking | undefined;

  readonly #repos = new Map<string, FakeRepo>();
  readonly #users = new Map<string, FakeUser>();
  readonly #issues = new Map<string, FakeIssue | FakePull>();
  readonly #nextNumber = new Map<string, number>();
  /** Each repository's entities, kept by the same in-memory state `agent-mux simulate` uses. */
  readonly #memories = new Map<string, MemoryGitHubState>();
  readonly #teams = new Map<string, FakeTeamMember[]>();
  /** Ids shared by every kind and every repository (and their in-memory states). */
  readonly #ids = new IdCounter(1000);

  constructor(git?: GitBacking) {
    this.git = git;
  }

  /** A fresh id (ids are unique across all kinds, as GitHub's are in practice). */
  nextId(): number {
    return this.#ids.next();
  }

  /** The current time in GitHub's format. */
  timestamp(): string {
    return isoSeconds(this.now());
  }

  // ── users ──────────────────────────────────────────────────────────────

  /** Registers a user (idempotent) and returns it. A login ending in `[bot]` is a Bot. */
  addUser(input: UserInput): FakeUser {
    const login = typeof input === 'string' ? input : input.login;
    const existing = this.#users.get(login.toLowerCase());
    if (existing !== undefined) return existing;
    const type =
      typeof input === 'string' || input.type === undefined ? (login.endsWith('[bot]') ? 'Bot' : 'User') : input.type;
    const user: FakeUser = { id: this.nextId(), login, type };
    this.#users.set(login.toLowerCase(), user);
    return user;
  }

  /** A known user, or undefined. */
  user(login: string): FakeUser | undefined {
    return this.#users.get(login.toLowerCase());
  }

  // ── repositories ───────────────────────────────────────────────────────

  /** Adds a repository; without git backing its default branch gets a made-up head sha. */
  addRepo(options: RepoRef & { defaultBranch?: string; private?: boolean; installationId?: number }): FakeRepo {
    const defaultBranch = options.defaultBranch ?? 'main';
    const repo: FakeRepo = {
      id: this.nextId(),
      owner: options.owner,
      repo: options.repo,
      defaultBranch,
      private: options.private ?? false,
      installationId: options.installationId ?? 1,
      branches: new Map([[defaultBranch, fakeSha(`${options.owner}/${options.repo}@${defaultBranch}`)]]),
      files: new Map(),
    };
    this.addUser({ login: options.owner, type: 'User' });
    this.#repos.set(repoKey(options), repo);
    const memory = new MemoryGitHubState({
      repo: { owner: options.owner, repo: options.repo },
      defaultBranch,
      selfLogin: 'agent-mux[bot]',
      ids: this.#ids,
    });
    memory.now = () => this.now();
    this.#memories.set(repoKey(options), memory);
    return repo;
  }

  /** The in-memory state (the one `agent-mux simulate` uses) that keeps a repository's entities. */
  memory(ref: RepoRef): MemoryGitHubState | undefined {
    return this.#memories.get(repoKey(ref));
  }

  /** A repository, or undefined. */
  repo(ref: RepoRef): FakeRepo | undefined {
    return this.#repos.get(repoKey(ref));
  }

  /** True when some repository is installed under that installation id. */
  hasInstallation(id: number): boolean {
    return [...this.#repos.values()].some((r) => r.installationId === id);
  }

  /** A repository, or an Error naming it (for seeding mistakes in tests). */
  requireRepo(ref: RepoRef): FakeRepo {
    const repo = this.repo(ref);
    if (repo === undefined) throw new Error(`fake GitHub: no repository ${ref.owner}/${ref.repo}; call addRepo first`);
    return repo;
  }

  /** Gives a user a role on a repository (kept in its in-memory state) and makes the user known. */
  setPermission(ref: RepoRef, login: string, role: FakeRole): void {
    this.requireRepo(ref);
    this.addUser(login);
    this.memory(ref)?.setRole(login, role);
  }

  /** A known user's role (the owner is an admin, `none` without access); undefined for an unknown user. */
  permissionOf(ref: RepoRef, login: string): FakeRole | 'none' | undefined {
    if (this.user(login) === undefined) return undefined;
    return this.memory(ref)?.roleOf(login) ?? 'none';
  }

  /** Sets a branch head (without git backing). */
  setBranch(ref: RepoRef, branch: string, sha: string): void {
    this.requireRepo(ref).branches.set(branch, sha);
  }

  /** Sets a file's text at a branch or sha (without git backing); creates the branch if it is unknown. */
  setFile(ref: RepoRef, gitRef: string, path: string, text: string): void {
    const repo = this.requireRepo(ref);
    if (!/^[0-9a-f]{40}$/.test(gitRef) && !repo.branches.has(gitRef)) {
      repo.branches.set(gitRef, fakeSha(`${repoKey(ref)}@${gitRef}`));
    }
    repo.files.set(`${gitRef}\u0000${path}`, text);
  }

  // ── teams ──────────────────────────────────────────────────────────────

  /** Adds a team; members are active `member`s unless given in full. */
  addTeam(org: string, slug: string, members: (string | FakeTeamMember)[]): void {
    this.#teams.set(
      `${org}/${slug}`.toLowerCase(),
      members.map((m) => (typeof m === 'string' ? { login: m, role: 'member', state: 'active' } : m)),
    );
    for (const member of members) this.addUser(typeof member === 'string' ? member : member.login);
  }

  /** A team's membership of a user, or undefined (also for an unknown team). */
  teamMembership(org: string, slug: string, login: string): FakeTeamMember | undefined {
    return this.#teams.get(`${org}/${slug}`.toLowerCase())?.find((m) => m.login.toLowerCase() === login.toLowerCase());
  }

  /** True when the team exists. */
  hasTeam(org: string, slug: string): boolean {
    return this.#teams.has(`${org}/${slug}`.toLowerCase());
  }

  // ── issues and pulls ───────────────────────────────────────────────────

  #number(ref: RepoRef, wanted: number | undefined): number {
    const key = repoKey(ref);
    const next = this.#nextNumber.get(key) ?? 1;
    const number = wanted ?? next;
    if (this.#issues.has(`${key}#${number}`)) throw new Error(`fake GitHub: ${key}#${number} already exists`);
    this.#nextNumber.set(key, Math.max(next, number + 1));
    return number;
  }

  /** Adds an issue. */
  addIssue(ref: RepoRef, options: { number?: number; title: string; body?: string; user: UserInput }): FakeIssue {
    this.requireRepo(ref);
    const now = this.timestamp();
    const issue: FakeIssue = {
      repoKey: repoKey(ref),
      number: this.#number(ref, options.number),
      title: options.title,
      body: options.body ?? '',
      user: this.addUser(options.user),
      state: 'open',
      createdAt: now,
      updatedAt: now,
    };
    this.#issues.set(`${issue.repoKey}#${issue.number}`, issue);
    return issue;
  }

  /**
   * Adds a pull request. Without `headSha` the head is the branch's sha (from git when backed, else made
   * up). With git backing, `refs/pull/N/head` is written into the bare repository.
   */
  addPull(
    ref: RepoRef,
    options: {
      number?: number;
      title: string;
      body?: string;
      headRef: string;
      headSha?: string;
      baseRef?: string;
      /** True (fork owned by `fork-owner`), an owner name, or `'deleted'` (head repository gone). */
      fromFork?: boolean | string;
      maintainerCanModify?: boolean;
      draft?: boolean;
      user: UserInput;
    },
  ): FakePull {
    const repo = this.requireRepo(ref);
    const fork = options.fromFork ?? false;
    const fromFork = fork !== false;
    const headOwner =
      fork === 'deleted' ? undefined : fork === true ? 'fork-owner' : fromFork ? String(fork) : repo.owner;
    if (headOwner !== undefined) this.addUser(headOwner);
    let headSha = options.headSha;
    if (headSha === undefined && this.git !== undefined && !fromFork) {
      headSha = this.git.commitOfSync(`refs/heads/${options.headRef}`);
    }
    headSha ??= repo.branches.get(options.headRef) ?? fakeSha(`${repoKey(ref)}:${options.headRef}:${fork}`);
    if (!fromFork && this.git === undefined && !repo.branches.has(options.headRef)) {
      repo.branches.set(options.headRef, headSha);
    }
    const now = this.timestamp();
    const pull: FakePull = {
      repoKey: repoKey(ref),
      number: this.#number(ref, options.number),
      title: options.title,
      body: options.body ?? '',
      user: this.addUser(options.user),
      state: 'open',
      createdAt: now,
      updatedAt: now,
      headRef: options.headRef,
      headSha,
      baseRef: options.baseRef ?? repo.defaultBranch,
      headOwner,
      headRepo: headOwner === undefined ? undefined : repo.repo,
      fromFork,
      maintainerCanModify: options.maintainerCanModify ?? false,
      draft: options.draft ?? false,
      requestedReviewers: [],
      requestedTeams: [],
    };
    this.#issues.set(`${pull.repoKey}#${pull.number}`, pull);
    this.git?.updateRefSync(`refs/pull/${pull.number}/head`, headSha);
    return pull;
  }

  /** A new push to a pull request's head (moves `refs/pull/N/head` too when git-backed). */
  pushHead(ref: RepoRef, pullNumber: number, newSha: string): void {
    const pull = this.pull(ref, pullNumber);
    if (pull === undefined) throw new Error(`fake GitHub: no pull ${repoKey(ref)}#${pullNumber}`);
    pull.headSha = newSha;
    pull.updatedAt = this.timestamp();
    const repo = this.requireRepo(ref);
    if (!pull.fromFork && this.git === undefined) repo.branches.set(pull.headRef, newSha);
    this.git?.updateRefSync(`refs/pull/${pullNumber}/head`, newSha);
  }

  /** An issue or pull request by number. */
  issue(ref: RepoRef, number: number): FakeIssue | FakePull | undefined {
    return this.#issues.get(`${repoKey(ref)}#${number}`);
  }

  /** A pull request by number (undefined for a plain issue). */
  pull(ref: RepoRef, number: number): FakePull | undefined {
    const issue = this.issue(ref, number);
    return issue !== undefined && isPull(issue) ? issue : undefined;
  }

  /** All pull requests of a repository, by number. */
  pulls(ref: RepoRef): FakePull[] {
    const key = repoKey(ref);
    return [...this.#issues.values()].filter((i): i is FakePull => i.repoKey === key && isPull(i));
  }

  /** Adds a pull request created through the API (numbered after the existing ones). */
  createPull(ref: RepoRef, pull: Omit<FakePull, 'number' | 'repoKey' | 'createdAt' | 'updatedAt' | 'state'>): FakePull {
    const now = this.timestamp();
    const created: FakePull = {
      ...pull,
      repoKey: repoKey(ref),
      number: this.#number(ref, undefined),
      state: 'open',
      createdAt: now,
      updatedAt: now,
    };
    this.#issues.set(`${created.repoKey}#${created.number}`, created);
    if (this.git !== undefined) this.git.updateRefSync(`refs/pull/${created.number}/head`, created.headSha);
    return created;
  }

  /** Users and teams whose review is requested on a pull request. */
  reviewRequests(ref: RepoRef, number: number): { users: string[]; teams: string[] } {
    const pull = this.pull(ref, number);
    return { users: [...(pull?.requestedReviewers ?? [])], teams: [...(pull?.requestedTeams ?? [])] };
  }

  // ── comments, reviews, reactions ───────────────────────────────────────

  /** Adds an issue (or PR conversation) comment (kept in the repository's in-memory state). */
  addComment(ref: RepoRef, issueNumber: number, options: { body: string; user: UserInput }): FakeComment {
    const memory = this.memory(ref);
    if (memory === undefined || this.issue(ref, issueNumber) === undefined) {
      throw new Error(`fake GitHub: no issue ${repoKey(ref)}#${issueNumber}`);
    }
    const user = this.addUser(options.user);
    const comment = memory.addComment(issueNumber, {
      body: options.body,
      user: { login: user.login, type: user.type },
    });
    return fakeCommentOf(repoKey(ref), comment, user);
  }

  /** An issue comment of a repository as stored, for the routes that change it. */
  commentRecord(ref: RepoRef, id: number): MemoryComment | undefined {
    return this.memory(ref)?.commentsById.get(id);
  }

  /** One issue comment by id, in any repository (a snapshot). */
  comment(id: number): FakeComment | undefined {
    for (const [key, memory] of this.#memories) {
      const comment = memory.commentsById.get(id);
      if (comment !== undefined) return fakeCommentOf(key, comment, this.addUser(comment.user.login));
    }
    return undefined;
  }

  /** The comments on an issue, oldest first (snapshots). */
  comments(ref: RepoRef, issueNumber: number): FakeComment[] {
    const key = repoKey(ref);
    return (this.memory(ref)?.comments(issueNumber) ?? []).map((c) =>
      fakeCommentOf(key, c, this.addUser(c.user.login)),
    );
  }

  /** Every reaction created, in order, in every repository (snapshots). */
  get reactions(): FakeReaction[] {
    return [...this.#memories].flatMap(([key, memory]) =>
      memory.reactions.map((r) => fakeReactionOf(key, r, this.addUser(r.user.login))),
    );
  }

  /** Adds a pull request review comment (a comment on a diff line), kept in the in-memory state. */
  addReviewComment(
    ref: RepoRef,
    pullNumber: number,
    options: { body: string; user: UserInput; path?: string } & ReviewCommentPlace,
  ): FakeReviewComment {
    const memory = this.memory(ref);
    if (memory === undefined) throw new Error(`fake GitHub: no repository ${repoKey(ref)}; call addRepo first`);
    const line = options.line ?? 1;
    const startLine = options.startLine;
    const originalLine = options.originalLine ?? line;
    const originalStartLine = options.originalStartLine ?? startLine;
    const commitId = options.commitId ?? this.pull(ref, pullNumber)?.headSha ?? '0'.repeat(40);
    const user = this.addUser(options.user);
    const comment = memory.addReviewComment(pullNumber, {
      body: options.body,
      user: { login: user.login, type: user.type },
      location: {
        path: options.path ?? 'README.md',
        lines: { start: startLine ?? line, end: line },
        originalLines: { start: originalStartLine ?? originalLine, end: originalLine },
        side: options.side ?? 'RIGHT',
        startSide: startLine === undefined ? undefined : (options.startSide ?? options.side ?? 'RIGHT'),
        diffHunk: options.diffHunk ?? `@@ -${line} +${line} @@`,
      },
      ...(options.reviewId === undefined ? {} : { reviewId: options.reviewId }),
      ...(options.inReplyToId === undefined ? {} : { inReplyToId: options.inReplyToId }),
      commitId,
      originalCommitId: options.originalCommitId ?? commitId,
    });
    return fakeReviewCommentOf(repoKey(ref), comment, user);
  }

  /** The review comments of a pull request, oldest first (snapshots). */
  reviewComments(ref: RepoRef, pullNumber: number): FakeReviewComment[] {
    const key = repoKey(ref);
    return [...(this.memory(ref)?.reviewComments.values() ?? [])]
      .filter((c) => c.pullNumber === pullNumber)
      .map((c) => fakeReviewCommentOf(key, c, this.addUser(c.user.login)));
  }

  /** One review comment by id, in any repository (a snapshot). */
  reviewComment(id: number): FakeReviewComment | undefined {
    for (const [key, memory] of this.#memories) {
      const comment = memory.reviewComments.get(id);
      if (comment !== undefined) return fakeReviewCommentOf(key, comment, this.addUser(comment.user.login));
    }
    return undefined;
  }

  /** Adds a submitted review (kept in the in-memory state). `commitId` defaults to the pull's head sha. */
  addReview(
    ref: RepoRef,
    pullNumber: number,
    options: { state: FakeReview['state']; body?: string; user: UserInput; commitId?: string },
  ): FakeReview {
    const pull = this.pull(ref, pullNumber);
    const memory = this.memory(ref);
    if (pull === undefined || memory === undefined)
      throw new Error(`fake GitHub: no pull ${repoKey(ref)}#${pullNumber}`);
    const user = this.addUser(options.user);
    const review = memory.addReview(pullNumber, {
      state: options.state,
      body: options.body ?? '',
      user: { login: user.login, type: user.type },
      commitId: options.commitId ?? pull.headSha,
    });
    return fakeReviewOf(repoKey(ref), review, user);
  }

  /** The reviews of a pull request, oldest first (snapshots). */
  reviews(ref: RepoRef, pullNumber: number): FakeReview[] {
    const key = repoKey(ref);
    return (this.memory(ref)?.reviews ?? [])
      .filter((r) => r.pullNumber === pullNumber)
      .map((r) => fakeReviewOf(key, r, this.addUser(r.user.login)));
  }

  // ── check runs (kept in the in-memory state) ───────────────────────────

  /** A check run of a repository as stored, for the routes that change it. */
  checkRunRecord(ref: RepoRef, id: number): MemoryCheckRun | undefined {
    return this.memory(ref)?.checkRunsById.get(id);
  }

  /** One check run by id (a snapshot). */
  checkRun(id: number): FakeCheckRun | undefined {
    for (const [key, memory] of this.#memories) {
      const run = memory.checkRunsById.get(id);
      if (run !== undefined) return fakeCheckRunOf(key, run, this.addUser(run.creator.login));
    }
    return undefined;
  }

  /** The check runs of a repository, in creation order (snapshots). */
  checkRuns(ref: RepoRef): FakeCheckRun[] {
    const key = repoKey(ref);
    return (this.memory(ref)?.checkRuns() ?? []).map((run) =>
      fakeCheckRunOf(key, run, this.addUser(run.creator.login)),
    );
  }

  // ── workflow runs (kept in the in-memory state) ────────────────────────

  /** Adds a GitHub Actions workflow run. */
  addWorkflowRun(
    ref: RepoRef,
    options: {
      id?: number;
      name?: string;
      event?: string;
      status?: string;
      conclusion?: string | null;
      headBranch?: string;
      headSha?: string;
    },
  ): FakeWorkflowRun {
    const repo = this.requireRepo(ref);
    const memory = this.memory(ref) as MemoryGitHubState;
    const run = memory.addWorkflowRun({
      ...options,
      headSha: options.headSha ?? repo.branches.get(repo.defaultBranch) ?? fakeSha('run'),
    });
    return this.#workflowRunView(repoKey(ref), run);
  }

  #workflowRunView(key: string, run: MemoryWorkflowRun): FakeWorkflowRun {
    return fakeWorkflowRunOf(key, run, fakeSha('run'));
  }

  /** A workflow run of a repository as stored, for the routes that change it. */
  workflowRunRecord(ref: RepoRef, id: number): MemoryWorkflowRun | undefined {
    return this.memory(ref)?.workflowRuns.get(id);
  }

  /** The workflow runs of a repository, newest first (as the API lists them; snapshots). */
  workflowRuns(ref: RepoRef): FakeWorkflowRun[] {
    const key = repoKey(ref);
    return [...(this.memory(ref)?.workflowRuns.values() ?? [])].map((r) => this.#workflowRunView(key, r)).reverse();
  }

  /** One workflow run by id (a snapshot). */
  workflowRun(id: number): FakeWorkflowRun | undefined {
    for (const [key, memory] of this.#memories) {
      const run = memory.workflowRuns.get(id);
      if (run !== undefined) return this.#workflowRunView(key, run);
    }
    return undefined;
  }
}

/** True for a pull request (a pull is also an issue). */
export function isPull(issue: FakeIssue | FakePull): issue is FakePull {
  return 'headRef' in issue;
}

import type { GitHubApi, RepoRef, RepoRole } from '../../src/github/github-api.ts';

/** A user given by login: a `User`, unless the login ends in `[bot]`. */
export type SeedLogin = string;

/** A review comment to seed; without `path`/`line` it is on line 1 of README.md. */
export interface SeedReviewComment {
  body: string;
  user: SeedLogin;
  path?: string;
  line?: number;
  diffHunk?: string;
  reviewId?: number;
}

/** A pull request to seed. A same-repository head follows its branch; a fork's head is `headSha`. */
export interface SeedPull {
  number: number;
  title: string;
  user: SeedLogin;
  headRef: string;
  /** Owner of the fork the head lives in; `null` when the fork was deleted; absent for a same-repository head. */
  fork?: string | null;
  /** The head commit (needed for a fork). */
  headSha?: string;
  maintainerCanModify?: boolean;
}

/** How a contract test puts things into a GitHub stand-in, whichever it is. */
export interface GitHubSeed {
  role(login: SeedLogin, role: Exclude<RepoRole, 'none'>): void;
  team(org: string, slug: string, members: SeedLogin[]): void;
  issue(number: number, title: string, user: SeedLogin): void;
  pull(pull: SeedPull): void;
  /** Returns the comment's id. */
  comment(issueNumber: number, body: string, user: SeedLogin): number;
  /** Returns the comment's id. */
  reviewComment(pullNumber: number, comment: SeedReviewComment): number;
  /** Returns the review's id. */
  review(pullNumber: number, review: { state: string; body?: string; user: SeedLogin; commitId: string }): number;
  /** Returns the run's id. */
  workflowRun(status?: string): number;
  /** An Actions cache entry (default ref: the default branch); returns its id. */
  actionsCache(key: string, ref?: string): number;
  /** A person's reaction on a review comment (`-1` is 👎). */
  reviewCommentReaction(commentId: number, content: string, user: SeedLogin): void;
}

/** A check run as a stand-in keeps it, in one shape for both. */
export interface SeenCheckRun {
  id: number;
  name: string;
  headSha: string;
  status: string;
  conclusion: string | undefined;
  title: string | undefined;
  summary: string | undefined;
  text: string | undefined;
  annotationPaths: string[];
  actions: string[];
  completed: boolean;
  updates: number;
}

/** How a contract test reads back what a stand-in stored beyond what the port returns. */
export interface GitHubInspect {
  reactions(): { kind: string; id: number; content: string; login: string }[];
  checkRuns(): SeenCheckRun[];
  reviewRequests(pullNumber: number): { users: string[]; teams: string[] };
  workflowRun(id: number): { status: string; conclusion: string | undefined; cancelRequested: boolean } | undefined;
}

/**
 * One GitHub stand-in under the `GitHubApi` contract: its port, how to seed and inspect it, and what
 * differs by design (where clones come from). `repo` is `octo/demo`, backed by the bare repository `bare`.
 */
export interface GitHubApiHarness {
  api: GitHubApi;
  repo: RepoRef;
  /** The login the port writes as. */
  selfLogin: string;
  /** The clone URL of a repository named `owner/demo` as this stand-in reports it. */
  cloneUrl(owner: string): string;
  seed: GitHubSeed;
  inspect: GitHubInspect;
  /** Replaces the clock used for timestamps. */
  setNow(now: () => Date): void;
  /** Requests the stand-in found off GitHub's description (always none for an in-process one). */
  violations(): string[];
  close(): Promise<void>;
}

/** Makes a fresh stand-in for `octo/demo` on a bare repository with `main` and `feature`. */
export type MakeGitHubApiHarness = (bare: string) => Promise<GitHubApiHarness>;

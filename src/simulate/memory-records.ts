import type {
  CheckRunAction,
  CheckRunAnnotation,
  CheckRunConclusion,
  CheckRunStatus,
  ReviewCommentInfo,
} from '../github/github-api.ts';

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
  createdAt: string;
  /** Set again when the pull request's head moves. */
  updatedAt: string;
  pull?: MemoryPullFields;
}

/** A pull request: an issue with its pull request fields. */
export type MemoryPull = MemoryIssue & { pull: MemoryPullFields };

/** What a pull request has beyond an issue. */
export interface MemoryPullFields {
  headRef: string;
  /**
   * The head commit as last pushed. Where git backs the repository a same-repository head is read
   * live from its branch instead; a fork's head is always this one.
   */
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
  /** When its body was last edited (GraphQL `lastEditedAt`); unset until an edit. */
  lastEditedAt?: string;
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

/** A GitHub Actions cache entry as the REST API lists it (the Action's daily spending lives in keys). */
export interface MemoryActionsCache {
  id: number;
  key: string;
  /** The Git ref whose runs saved it, e.g. `refs/heads/main`. */
  ref: string;
  version: string;
  createdAt: string;
  sizeBytes: number;
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

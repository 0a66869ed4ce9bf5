import type { CommentRef, GitHubUser, RepoRef, ReviewCommentInfo } from '../github-api.ts';

/** The `pull_request` actions an automatic review can follow. */
export const PULL_REQUEST_ACTIONS = ['opened', 'synchronize', 'reopened', 'ready_for_review'] as const;
export type PullRequestAction = (typeof PULL_REQUEST_ACTIONS)[number];

/** Who caused the event: the webhook's `sender`. */
export type Actor = GitHubUser;

/** Where the triggering text came from, with what is needed to react to it or reply to it. */
export type TriggerSource =
  | CommentRef
  | { kind: 'review'; reviewId: number; state: string }
  | { kind: 'issue'; action: 'opened' | 'assigned' | 'labeled'; label?: string; assignee?: string }
  /** A pull request opened, pushed to, reopened or marked ready: what starts an automatic review (`review.on`). */
  | { kind: 'pull_request'; action: PullRequestAction; draft: boolean }
  | { kind: 'dispatch' };

/** A GitHub event that may start (or steer) a run, reduced to what the use cases need. */
export interface TriggerEvent {
  eventName: string;
  repo: RepoRef;
  /** Issue or pull request number; undefined only for a dispatch without one. */
  number: number | undefined;
  isPullRequest: boolean;
  actor: Actor;
  /** The text as it was when the event fired (never re-fetched: an edit after the trigger changes nothing). */
  text: string;
  source: TriggerSource;
  /** Issue or pull request title (`''` for a dispatch). */
  title: string;
  /** Issue or pull request body (`''` when none). */
  issueBody: string;
  /** PR head sha when the payload has it (pull_request_review(_comment)). */
  headSha?: string;
  /** When GitHub says the text was written: a comment's `created_at`, a review's `submitted_at`. */
  givenAt?: string;
  /** The commit a review was submitted on (`review.commit_id`): what an approving review approves. */
  reviewCommitSha?: string;
  /** The review comment that holds the text, with its place in the diff (pull_request_review_comment only). */
  reviewComment?: ReviewCommentInfo;
  installationId?: number;
  /**
   * The repository's default branch as the payload says it was when the event fired. A hint for
   * reading ahead only: what runs on it is checked against the repository as GitHub has it now.
   */
  defaultBranch?: string;
}

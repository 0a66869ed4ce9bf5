import type { TurnRecord } from '../conversation/turn-record.ts';
import type { RunConclusion } from './run-lifecycle.ts';

/** How a run ended, as the front end reports it once everything (git, pull request) is done. */
export interface FinishInfo {
  /** The turn's record as it ended (its last message, branch, pull request), for the tracking comment. */
  record?: TurnRecord;
  conclusion: RunConclusion;
  /** Why it failed, was cancelled or timed out; shown as is. */
  reason?: string;
  /** The branch the agent's commits were pushed to. */
  branch?: string;
  pullRequestUrl?: string;
  /** True when the agent finished but changed nothing. */
  noChanges?: boolean;
  /** The agent's last message (its answer to a question, its account of a change), as it wrote it. */
  answer?: string;
  /** For a pull request from a fork: how its author takes the change (nothing is pushed to a fork). */
  fork?: ForkDelivery;
}

/** Where the change of a run on a fork pull request went, so its author can take it. */
export type ForkDelivery =
  | { kind: 'suggestions'; reviewId: number; reviewUrl: string; count: number }
  | { kind: 'pull_request'; number: number; url: string; branch: string; cloneUrl: string }
  | { kind: 'branch'; branch: string; cloneUrl: string };

import type { RepoConfig } from '../config/repo-config-schema.ts';
import type { RepoRef, ReviewCommentInfo } from '../github-api.ts';
import type { Actor, TriggerSource } from '../trigger/trigger-event.ts';

/**
 * One accepted request to run an agent: plain data, so that a front end may queue and store it
 * (the app) or run it at once (the Action). Made by `decideTrigger` (through `handleTrigger`), carried out by `executeRun`.
 */
export interface RunJob {
  /** Unique per request: the webhook delivery id, or one made up. */
  id: string;
  repo: RepoRef;
  number: number | undefined;
  isPullRequest: boolean;
  actor: Actor;
  source: TriggerSource;
  /** The configured agent's name (a key of `config.agents`, or `demo`). */
  agentName: string;
  /** What the actor asked, sanitized. */
  instruction: string;
  /** The prompt handed to the agent: the instruction, then the issue or PR text framed as untrusted data. */
  prompt: string;
  title: string;
  /**
   * The review comments the request came with, each with its place in the diff: the one it was
   * written in (`source.kind === 'review_comment'`: the answer goes into its thread) or the comments
   * of the review whose body holds it. Absent for other sources.
   */
  reviewComments?: ReviewCommentInfo[];
  /**
   * How the run relates to its issue's or pull request's conversation: `fresh` (`@agent new: …`)
   * starts a new one; `agentNamed`: the mention named its agent, which then wins over the last turn's.
   */
  conversation?: { fresh?: boolean; agentNamed?: boolean };
  /**
   * A review of the pull request (`@agent review [what to look at]` on a pull request): the agent
   * reports findings, agent-mux posts them as a review and concludes the check run
   * `agent-mux / review` by what is still open. Nothing is committed.
   */
  review?: { focus: string };
  /** The repository config as read from the default branch when the job was accepted. */
  config: RepoConfig;
  defaultBranch: string;
  requestedAt: string;
}

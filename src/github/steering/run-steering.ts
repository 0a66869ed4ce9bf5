import { errorText } from '../../core/errors/error-text.ts';
import type { SteerMessage, SteerOutcome } from '../../core/run/agent-input.ts';
import type { CommentRef, GitHubApi, GitHubUser } from '../github-api.ts';
import { sanitizeText } from '../sanitize/sanitize-text.ts';
import { parseCommand } from '../trigger/parse-command.ts';
import { authorizeActor } from '../trust/authorize-actor.ts';
import type { RunJob } from '../use-cases/run-job.ts';

/**
 * A comment written on the run's issue or pull request while the run was in progress: an issue
 * comment, or a review comment of the pull request (a reply in the run's review thread, say).
 */
export interface SteerCandidate {
  commentId: number;
  body: string;
  actor: GitHubUser;
  /** The comment was edited after it was written: its text may not be its author's; not taken. */
  edited?: boolean;
  source: CommentRef;
}

/** What became of a comment offered to a running agent. */
export type SteerResult =
  | { kind: 'delivered' }
  | { kind: 'queued'; reason: string }
  /** Not a request for this run's agent, or from someone who may not start runs: left to its own run. */
  | { kind: 'ignored'; reason: string };

export interface RunSteeringOptions {
  api: Pick<GitHubApi, 'getPermission' | 'addReaction'>;
  job: RunJob;
  selfLogins: readonly string[];
  /** The trigger phrase and agents, for reading commands (as the run's own mention was read). */
  phrase: string;
  agents: readonly string[];
  allowedBots: readonly string[];
  /** Gives the message to the running agent (`RunHandle.steer`); undefined until the agent runs. */
  steer: () => ((message: SteerMessage) => SteerOutcome) | undefined;
  /** Whether the run already took the comment up (its own mention, the missed ones it runs for). */
  taken: (source: CommentRef) => boolean;
  /** A comment delivered to the agent: kept in the turn's record (`steered`, `steeredReview`). */
  onDelivered: (source: CommentRef) => void;
  log: (line: string) => void;
}

/** Offers comments made during a run to its running agent. */
export interface RunSteering {
  offer(candidate: SteerCandidate): Promise<SteerResult>;
}

/**
 * Steering from GitHub, for both front ends (the Action's poller, the app's webhooks): a mention
 * on the run's issue or pull request while it runs — for this run's agent or naming none, by a user
 * who may start runs (the same trust rules as a new mention), written as it is — goes into the
 * agent's live session as a user message, its text sanitized like a mention's instruction. The
 * comment gets an `eyes` reaction at once; the run says where the agent took it (a `steered`
 * notice) or that it waits for the next turn (`steer_queued`), which the comment's own run then is.
 */
export function createRunSteering(options: RunSteeringOptions): RunSteering {
  const { job } = options;
  // By kind and id: issue comments and review comments are numbered apart.
  const seen = new Set<string>();
  return {
    async offer(candidate) {
      const key = `${candidate.source.kind}:${candidate.source.commentId}`;
      if (seen.has(key) || options.taken(candidate.source)) {
        return { kind: 'ignored', reason: 'already taken up' };
      }
      seen.add(key);
      const command = parseCommand(candidate.body, { phrase: options.phrase, agents: options.agents });
      if (command?.kind !== 'run' || command.fresh) return { kind: 'ignored', reason: 'not a request to continue' };
      if (command.agent !== undefined && command.agent !== job.agentName) {
        return { kind: 'ignored', reason: `a request for ${command.agent}, not ${job.agentName}` };
      }
      if (candidate.edited) return { kind: 'ignored', reason: 'edited after it was written' };
      const trust = await authorizeActor({
        api: options.api,
        repo: job.repo,
        actor: candidate.actor,
        selfLogins: options.selfLogins,
        allowedBots: options.allowedBots,
        minimumRole: job.config.trigger.permission,
      });
      if (!trust.allowed) return { kind: 'ignored', reason: trust.reason };
      const instruction = sanitizeText(command.prompt).trim();
      if (instruction === '') return { kind: 'ignored', reason: 'the mention asks nothing' };
      const login = candidate.actor.login;
      await react(options, candidate);
      const steer = options.steer();
      const outcome: SteerOutcome = steer
        ? steer({ text: steeringText(login, instruction), from: `@${login}` })
        : { kind: 'queued', reason: 'the agent has not started yet' };
      if (outcome.kind === 'delivered') {
        options.onDelivered(candidate.source);
        options.log(`steering: @${login}'s comment ${candidate.commentId} delivered to the running agent`);
      } else {
        options.log(`steering: @${login}'s comment ${candidate.commentId} queued for the next turn: ${outcome.reason}`);
      }
      return outcome;
    },
  };
}

/** The message as the agent reads it: who asks (a user who may start runs here), and what. */
export function steeringText(login: string, instruction: string): string {
  return `A new message from @${login} on GitHub while you work (they may start runs in this repository; take it into account): ${instruction}`;
}

async function react(options: RunSteeringOptions, candidate: SteerCandidate): Promise<void> {
  try {
    await options.api.addReaction(options.job.repo, candidate.source, 'eyes');
  } catch (error) {
    options.log(`steering: could not react to comment ${candidate.commentId}: ${errorText(error)}`);
  }
}

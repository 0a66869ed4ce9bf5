import type { RepoConfig } from '../config/repo-config-schema.ts';
import type { GitHubApi, RepoRef } from '../github-api.ts';
import { type ConversationTurn, readConversation } from './read-conversation.ts';

/** What a run is in its conversation. */
export interface TurnPlan {
  /** The number the conversation is kept under (the issue, for the pull request agent-mux opened for it). */
  conversation: number;
  /** This run's turn: 1 for a fresh start. */
  turn: number;
  /** The earlier turns this one continues, oldest first (empty for a fresh start). */
  earlier: ConversationTurn[];
  /** The agent to run: the one the mention named, else the last turn's (when still allowed), else the default. */
  agentName: string;
  /** Why the run starts fresh although there were earlier turns (expired, asked for, switched off). */
  freshReason?: string;
  /** The pull request the conversation's commits go to, when there is one. */
  pullRequest?: number;
  /** The branch the conversation's commits went to last (with `git.pullRequests: false`, the only place they are). */
  branch?: string;
  /**
   * Every earlier turn in the thread, also when this one starts fresh (`new:`, expired): the requests
   * they took up were answered, whatever this turn continues (the missed-mentions catch-up).
   */
  previous: ConversationTurn[];
}

export interface PlanTurnInput {
  api: Pick<GitHubApi, 'listComments'>;
  repo: RepoRef;
  number: number | undefined;
  /** The pull request's head branch, when the mention is on one. */
  headRef?: string;
  config: RepoConfig;
  selfLogins: readonly string[];
  /** The agent decided from the mention, the front end and the config. */
  agentName: string;
  /** True when the mention named its agent (it then wins over the last turn's). */
  agentNamed: boolean;
  /** `@agent new: …`. */
  fresh: boolean;
  /** The job (mention) this run is for: when a turn of it is recorded already, this run retries that turn. */
  jobId?: string;
  /** Agents that may run in the repository. */
  allowedAgents: readonly string[];
  now: Date;
}

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Decides what a run is in its issue's or pull request's conversation (`readConversation`): the
 * next turn of it, with the last turn's agent unless the mention named one; or a fresh start when
 * there is none, when the mention says `new:`, when `conversations.continue` is false, or when the
 * last turn is older than `conversations.expireDays` (then `freshReason` says so).
 */
export async function planTurn(input: PlanTurnInput): Promise<TurnPlan> {
  let previous: ConversationTurn[] = [];
  const fresh = (conversation: number, freshReason?: string): TurnPlan => ({
    conversation,
    turn: 1,
    earlier: [],
    agentName: input.agentName,
    previous,
    ...(freshReason ? { freshReason } : {}),
  });
  if (input.number === undefined) return fresh(1);
  const history = await readConversation({
    api: input.api,
    repo: input.repo,
    number: input.number,
    headRef: input.headRef,
    branchPrefix: input.config.git.branchPrefix,
    selfLogins: input.selfLogins,
  });
  // A retried run of the same job (the app's recovery, a re-run workflow) is that turn again.
  const retried = input.jobId === undefined ? -1 : history.turns.findIndex((t) => t.record.job === input.jobId);
  const turns = retried === -1 ? history.turns : history.turns.slice(0, retried);
  previous = turns;
  if (retried !== -1 && turns.length === 0) return fresh(history.number);
  const last = turns.at(-1);
  if (last === undefined) return fresh(history.number);
  if (input.fresh) return fresh(history.number, 'a new conversation was asked for (`new:`)');
  const { continue: keepGoing, expireDays } = input.config.conversations;
  if (!keepGoing) return fresh(history.number);
  const age = input.now.getTime() - Date.parse(last.record.at);
  if (age > expireDays * DAY_MS) {
    return fresh(
      history.number,
      `the conversation expired: its last run was ${Math.floor(age / DAY_MS)} days ago (conversations.expireDays: ${expireDays})`,
    );
  }
  const agentName =
    input.agentNamed || !input.allowedAgents.includes(last.record.agent) ? input.agentName : last.record.agent;
  const pullRequest = turns.findLast((t) => t.record.pullRequest !== undefined)?.record.pullRequest;
  const branch = turns.findLast((t) => t.record.branch !== undefined)?.record.branch;
  return {
    conversation: history.number,
    turn: last.record.turn + 1,
    earlier: turns,
    previous,
    agentName,
    ...(pullRequest === undefined ? {} : { pullRequest }),
    ...(branch === undefined ? {} : { branch }),
  };
}

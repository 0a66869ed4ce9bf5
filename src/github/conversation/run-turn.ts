import { homedir } from 'node:os';
import type { Adapter } from '../../core/adapter/index.ts';
import type { SessionFileDeclaration, SessionLocation } from '../../core/adapter/session-files.ts';
import type { Redactor } from '../../core/redact/redactor.ts';
import type { FenceOptions } from '../../core/sandbox/index.ts';
import type { GitHubApi, PullInfo } from '../github-api.ts';
import { allowedAgents } from '../use-cases/allowed-agents.ts';
import type { RunJob } from '../use-cases/run-job.ts';
import type { ConversationStore } from './conversation-store.ts';
import { planTurn, type TurnPlan } from './plan-turn.ts';
import { restoreConversation } from './restore-conversation.ts';
import { saveConversation } from './save-conversation.ts';
import type { TurnRecord } from './turn-record.ts';

const DAY_MS = 24 * 60 * 60 * 1000;

/** What a front end gives `executeRun` to carry an agent's session from one turn to the next. */
export interface TurnConversations {
  store: ConversationStore;
  /** Where an adapter keeps its sessions; default the adapter's own `sessionFiles`. */
  sessionFiles?: (adapterId: string) => SessionFileDeclaration | undefined;
  /** Values that must not be kept in a session snapshot besides the run's (checked with a redactor). */
  secrets?: readonly string[];
}

/**
 * `planTurn` for a job, with the pull request the mention is on read once (its head branch tells
 * whether agent-mux opened it for an issue). When the comments cannot be read the run is a fresh
 * first turn, said in the log: a conversation never keeps a run from starting.
 */
export async function planTurnSafely(input: {
  api: GitHubApi;
  job: RunJob;
  selfLogins: readonly string[];
  builtinAgents: readonly string[];
  log: (line: string) => void;
  now?: Date;
}): Promise<{ plan: TurnPlan; ownPull: Promise<PullInfo | undefined> }> {
  const { api, job } = input;
  const ownPull =
    job.isPullRequest && job.number !== undefined ? api.getPull(job.repo, job.number) : Promise.resolve(undefined);
  ownPull.catch(() => {});
  const fallback: TurnPlan = {
    conversation: job.number ?? 1,
    turn: 1,
    earlier: [],
    previous: [],
    agentName: job.agentName,
  };
  try {
    const pull = await ownPull;
    const plan = await planTurn({
      api,
      repo: job.repo,
      number: job.number,
      headRef: pull?.fromFork ? undefined : pull?.headRef,
      config: job.config,
      selfLogins: input.selfLogins,
      agentName: job.agentName,
      agentNamed: job.conversation?.agentNamed ?? false,
      fresh: job.conversation?.fresh ?? false,
      jobId: job.id,
      allowedAgents: allowedAgents(job.config, input.builtinAgents),
      now: input.now ?? new Date(),
    });
    return { plan, ownPull };
  } catch (error) {
    input.log(
      `the conversation could not be read; starting fresh: ${error instanceof Error ? error.message : String(error)}`,
    );
    return { plan: fallback, ownPull };
  }
}

/** A turn's session: the one resumed (if any), and how to keep the one the run ends with. */
export interface ResumedTurn {
  /** The session to resume (`RunRequest.resumeSessionId`), when it could be restored. */
  sessionId?: string;
  /** Keeps the run's session for the next turn; never throws (a failure is noted). */
  save(end: {
    sessionId: string | undefined;
    branch: string | undefined;
    pullRequest: number | undefined;
  }): Promise<void>;
}

/**
 * Restores the previous turn's session where the agent looks for it and says which to resume:
 * only for the same agent as the last turn, an adapter with the `resume` capability and a known
 * session store, and a conversation not expired. Otherwise the run starts a new session (and gets
 * a summary of the earlier turns instead). `save` keeps the session the run ends with.
 */
export async function resumeTurn(input: {
  conversations: TurnConversations | undefined;
  job: RunJob;
  plan: TurnPlan;
  adapter: Adapter;
  location: SessionLocation;
  /** The run's redactor: a session snapshot holding what it redacts is not kept. */
  redactor: Redactor;
  log: (line: string) => void;
  now?: () => Date;
}): Promise<ResumedTurn> {
  const { conversations, job, plan, adapter, location, log } = input;
  const declaration = conversations
    ? conversations.sessionFiles
      ? conversations.sessionFiles(adapter.id)
      : adapter.sessionFiles
    : undefined;
  if (!conversations || job.number === undefined || !declaration) {
    if (plan.turn > 1)
      log(`the agent's session is not kept between runs (${adapter.id}); it gets a summary of the earlier turns`);
    return { save: async () => {} };
  }
  const key = { repository: `${job.repo.owner}/${job.repo.repo}`, number: plan.conversation, agent: job.agentName };
  const last = plan.earlier.at(-1)?.record;
  let sessionId: string | undefined;
  if (last && last.agent === job.agentName && adapter.capabilities.resume) {
    try {
      const state = await restoreConversation({
        store: conversations.store,
        key,
        adapter: adapter.id,
        declaration,
        location,
        now: input.now?.(),
        maxAgeMs: job.config.conversations.expireDays * DAY_MS,
        log,
      });
      sessionId = state?.sessionId;
    } catch (error) {
      log(`the conversation's session could not be restored; starting a new one: ${errorText(error)}`);
    }
  } else if (plan.turn > 1) {
    log(
      last && last.agent !== job.agentName
        ? `the last turn was ${last.agent}'s: ${job.agentName} starts a new session with a summary of the earlier turns`
        : `${adapter.id} cannot resume a session; it gets a summary of the earlier turns`,
    );
  }
  const redactor = input.redactor;
  redactor.addSecrets(conversations.secrets ?? []);
  return {
    ...(sessionId ? { sessionId } : {}),
    async save(end) {
      if (!end.sessionId) return;
      try {
        await saveConversation({
          store: conversations.store,
          key,
          state: {
            agent: job.agentName,
            adapter: adapter.id,
            sessionId: end.sessionId,
            ...(end.branch ? { branch: end.branch } : {}),
            ...(end.pullRequest ? { pullRequest: end.pullRequest } : {}),
            turns: plan.turn,
            updatedAt: (input.now?.() ?? new Date()).toISOString(),
          },
          declaration,
          location,
          redactor,
          log,
        });
      } catch (error) {
        log(`the conversation's session could not be kept: ${errorText(error)}`);
      }
    },
  };
}

/** The turn's record as it ended. */
export function turnRecordOf(
  base: Pick<TurnRecord, 'conversation' | 'turn' | 'job' | 'agent' | 'at' | 'instruction'>,
  end: Pick<TurnRecord, 'conclusion' | 'finalMessage' | 'branch' | 'pullRequest' | 'reviewed'>,
): TurnRecord {
  const record: TurnRecord = { ...base };
  if (end.reviewed) record.reviewed = end.reviewed;
  if (end.conclusion) record.conclusion = end.conclusion;
  if (end.finalMessage) record.finalMessage = end.finalMessage;
  if (end.branch) record.branch = end.branch;
  if (end.pullRequest) record.pullRequest = end.pullRequest;
  return record;
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * Where the agent's sessions are for a run: under the fence's HOME when a file-system fence gives
 * the agent one (the app's per-run HOME), else the agent's environment's HOME; `command` is the
 * agent's executable (`Adapter.program.command`), for agents whose sessions are carried by export,
 * which runs in the same fence.
 */
export function sessionLocation(
  fence: FenceOptions | undefined,
  env: Readonly<Record<string, string | undefined>>,
  cwd: string,
  command?: string,
): SessionLocation {
  const fenced = fence?.kind === 'filesystem' ? fence.home : undefined;
  return {
    home: fenced ?? env.HOME ?? homedir(),
    env,
    cwd,
    ...(command ? { command } : {}),
    ...(fence ? { fence } : {}),
  };
}

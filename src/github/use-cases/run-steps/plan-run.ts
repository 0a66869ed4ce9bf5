import { randomUUID } from 'node:crypto';
import { commentsReadOnce } from '../../comments-read-once.ts';
import { catchUpMentions, type MissedMention, takenUpComments } from '../../conversation/missed-mentions.ts';
import type { TurnPlan } from '../../conversation/plan-turn.ts';
import { planTurnSafely } from '../../conversation/run-turn.ts';
import type { TurnRecord } from '../../conversation/turn-record.ts';
import type { GitHubApi, PullInfo } from '../../github-api.ts';
import { redactingApi } from '../../redacting-api.ts';
import type { FinalMessage } from '../../report/final-message.ts';
import type { TrackingConversation } from '../../report/render-tracking-comment.ts';
import type { ExecuteRunOptions } from '../execute-run-options.ts';
import type { RunJob } from '../run-job.ts';
import type { RunSecrets } from '../run-secrets.ts';

/** The agent's last message as the run tracks it, and that message redacted (what GitHub is shown). */
export interface RunMessage {
  finalMessage: FinalMessage;
  answer: () => string | undefined;
}

/** What every step of a run reads: the options, the turn it is in its conversation, its records. */
export interface RunContext {
  options: ExecuteRunOptions;
  secrets: RunSecrets;
  message: RunMessage;
  runId: string;
  /** GitHub, every write redacted. */
  api: GitHubApi;
  /** The front end's log, redacted. */
  log: (line: string) => void;
  /** The job, with the agent the conversation runs (the last turn's unless the mention named one). */
  job: RunJob;
  plan: TurnPlan;
  /** The pull request the mention is on, read once (undefined on an issue). */
  ownPull: Promise<PullInfo | undefined>;
  /** Earlier mentions in the thread that no run took up, which this run takes up too. */
  missed: readonly MissedMention[];
  /** The turn's record as it starts (`turnRecordOf` completes it at the end). */
  baseRecord: TurnRecord;
  /** The turn's place in its conversation, for the tracking comment (undefined without an issue or PR). */
  tracking: TrackingConversation | undefined;
  /** Set by a review run once its review is published: the head it reviewed (its turn record's `reviewed`). */
  reviewed?: string;
}

/**
 * The first step of a run: its place in its conversation (the turn, the agent, the pull request)
 * and the mentions it takes up. The plan and the missed mentions read the thread's comments at
 * the same moment: once.
 */
export async function planRun(
  options: ExecuteRunOptions,
  secrets: RunSecrets,
  message: RunMessage,
): Promise<RunContext> {
  const { deps } = options;
  const api = redactingApi(deps.api, secrets.redactor);
  const log = (line: string) => deps.log?.(secrets.redactor.redactString(line));
  const planning = commentsReadOnce(api);
  const { plan, ownPull } = await planTurnSafely({
    api: planning,
    job: options.job,
    selfLogins: deps.selfLogins,
    builtinAgents: deps.builtinAgents,
    log,
  });
  const job = plan.agentName === options.job.agentName ? options.job : { ...options.job, agentName: plan.agentName };
  const missed = options.catchUp
    ? await catchUpMentions(options.catchUp, {
        api: planning,
        job,
        plan,
        selfLogins: deps.selfLogins,
        builtinAgents: deps.builtinAgents,
        log,
      })
    : [];
  const comments = takenUpComments(job, missed);
  const baseRecord: TurnRecord = {
    conversation: plan.conversation,
    turn: plan.turn,
    job: job.id,
    agent: job.agentName,
    at: new Date().toISOString(),
    instruction: job.instruction,
    ...(comments.length > 0 ? { comments } : {}),
  };
  const tracking: TrackingConversation | undefined =
    job.number === undefined
      ? undefined
      : {
          turn: plan.turn,
          earlier: plan.earlier.map((t) => ({ turn: t.record.turn, url: t.url })),
          ...(plan.freshReason ? { freshReason: plan.freshReason } : {}),
          ...(missed.length > 0 ? { alsoTakesUp: missed.map((m) => ({ login: m.login, url: m.url })) } : {}),
          record: baseRecord,
        };
  return {
    options,
    secrets,
    message,
    runId: options.runId ?? `run_${randomUUID()}`,
    api,
    log,
    job,
    plan,
    ownPull,
    missed,
    baseRecord,
    tracking,
  };
}

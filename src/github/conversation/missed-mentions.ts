import type { GitHubApi } from '../github-api.ts';
import { sanitizeText } from '../sanitize/sanitize-text.ts';
import { parseCommand } from '../trigger/parse-command.ts';
import { authorizeActor } from '../trust/authorize-actor.ts';
import type { RunJob } from '../use-cases/run-job.ts';
import type { TurnPlan } from './plan-turn.ts';

/** A request in the thread that no run took up. */
export interface MissedMention {
  commentId: number;
  url: string;
  login: string;
  instruction: string;
}

/** At most this many missed requests join one turn, the newest kept. */
export const MAX_MISSED_MENTIONS = 10;
/** The longest missed request a prompt carries. */
const MAX_INSTRUCTION_CHARS = 2000;
/** With no earlier turn, requests written this long before the mention still count. */
const WITHOUT_TURNS_MS = 24 * 60 * 60 * 1000;

export interface MissedMentionsInput {
  api: Pick<GitHubApi, 'listComments' | 'getPermission'>;
  job: RunJob;
  selfLogins: readonly string[];
  /** The trigger phrase the run was started with (the Action's input may override the config's). */
  phrase: string;
  /** The agent names a mention may address (the config's and the built-in ones). */
  agents: readonly string[];
  allowedBots: readonly string[];
  /** The comments the conversation's earlier turns took up (their records' `comments`). */
  answered: ReadonlySet<number>;
  /** When the conversation's last turn started, if any: only requests written since are missed ones. */
  lastTurnAt?: string;
  log?: (line: string) => void;
}

/**
 * The requests made in the thread of this run's mention since the conversation's last turn (or in
 * the day before the mention when there is none) that no run took up, oldest first: what the
 * Action's workflow `concurrency` dropped. GitHub keeps one pending run per group, so a mention
 * made while one run is in progress and another pending replaces the pending one, whose mention
 * would never be answered. Each must be a run request of this run's agent (or naming none) by a
 * user who may trigger runs, as the mention itself, and unedited; agent-mux's own comments never count.
 */
export async function missedMentions(input: MissedMentionsInput): Promise<MissedMention[]> {
  const { job } = input;
  if (job.source.kind !== 'issue_comment' || job.number === undefined) return [];
  const current = job.source.commentId;
  const since = input.lastTurnAt ? Date.parse(input.lastTurnAt) : Date.parse(job.requestedAt) - WITHOUT_TURNS_MS;
  const self = new Set(input.selfLogins.map((login) => login.toLowerCase()));
  const { data } = await input.api.listComments(job.repo, job.number);
  const candidates: MissedMention[] = [];
  const cancels: { commentId: number; user: NonNullable<(typeof data)[number]['user']> }[] = [];
  for (const comment of data) {
    const user = comment.user;
    if (comment.id >= current || input.answered.has(comment.id) || !user || self.has(user.login.toLowerCase()))
      continue;
    // Not one written before the window, nor one edited since it was written (its text may not be its author's).
    if (Date.parse(comment.createdAt) < since || comment.updatedAt !== comment.createdAt) continue;
    const command = parseCommand(comment.body, { phrase: input.phrase, agents: input.agents });
    if (command?.kind === 'cancel') {
      cancels.push({ commentId: comment.id, user });
      continue;
    }
    if (command?.kind !== 'run' || (command.agent !== undefined && command.agent !== job.agentName)) continue;
    // A request, not a passing remark ("Thanks, @agent, that worked"): the phrase opens a line.
    if (!opensLine(comment.body, input.phrase)) continue;
    const instruction = sanitizeText(command.prompt).trim().slice(0, MAX_INSTRUCTION_CHARS);
    if (instruction === '') continue;
    candidates.push({ commentId: comment.id, url: comment.htmlUrl, login: user.login, instruction });
  }
  const allowed = new Map<string, boolean>();
  const may = async (user: { login: string; type?: string }): Promise<boolean> => {
    let decided = allowed.get(user.login);
    if (decided === undefined) {
      const decision = await authorizeActor({
        api: input.api,
        repo: job.repo,
        actor: user as Parameters<typeof authorizeActor>[0]['actor'],
        selfLogins: input.selfLogins,
        allowedBots: input.allowedBots,
        minimumRole: job.config.trigger.permission,
      });
      decided = decision.allowed;
      allowed.set(user.login, decided);
      if (!decision.allowed) input.log?.(`not taking up @${user.login}'s earlier comment: ${decision.reason}`);
    }
    return decided;
  };
  // An `@agent cancel` by someone who may trigger runs withdraws every request made before it.
  let cancelledUpTo = -1;
  for (const cancel of cancels) if (await may(cancel.user)) cancelledUpTo = Math.max(cancelledUpTo, cancel.commentId);
  const standing = candidates.filter((mention) => mention.commentId > cancelledUpTo);
  if (standing.length < candidates.length) {
    input.log?.(
      `not taking up ${candidates.length - standing.length} earlier request(s): cancelled after they were made`,
    );
  }
  const missed: MissedMention[] = [];
  for (const mention of standing.slice(-MAX_MISSED_MENTIONS)) {
    const comment = data.find((c) => c.id === mention.commentId);
    if (await may(comment?.user ?? { login: mention.login, type: 'User' })) missed.push(mention);
  }
  return missed;
}

/** Whether a line of `body` opens with the phrase (after white space and a Markdown list mark). */
function opensLine(body: string, phrase: string): boolean {
  const escaped = phrase.trim().replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`^[ \\t]*(?:[-*+]|\\d+[.)])?[ \\t]*${escaped}(?![\\p{L}\\p{N}_-])`, 'imu').test(body);
}

/** The prompt's part that hands the missed requests to the agent, after the mention's own. */
export function missedMentionsPrompt(missed: readonly MissedMention[]): string {
  if (missed.length === 0) return '';
  const lines = missed.map((m) => `- @${m.login}: ${m.instruction.replace(/\s*\n\s*/g, ' ')}`);
  return (
    '\n\nAlso asked in this thread while an earlier run was under way, and not taken up by any run yet ' +
    `(oldest first; do these too):\n${lines.join('\n')}`
  );
}

/** What a front end gives `executeRun` to take up missed requests: the trigger as the run read it. */
export interface CatchUpOptions {
  phrase: string;
  allowedBots: readonly string[];
}

/**
 * {@link missedMentions} for a run about to start: the answered comments and the last turn's time
 * from its plan. Never throws: when the thread cannot be read, the run goes on alone (said in the log).
 */
export async function catchUpMentions(
  options: CatchUpOptions,
  context: {
    api: MissedMentionsInput['api'];
    job: RunJob;
    plan: TurnPlan;
    selfLogins: readonly string[];
    builtinAgents: readonly string[];
    log: (line: string) => void;
  },
): Promise<MissedMention[]> {
  const { job, plan } = context;
  try {
    return await missedMentions({
      api: context.api,
      job,
      selfLogins: context.selfLogins,
      phrase: options.phrase,
      agents: [...new Set([...Object.keys(job.config.agents), ...context.builtinAgents])],
      allowedBots: options.allowedBots,
      // Every earlier turn's, also for a fresh start (`new:`): what they took up was answered.
      // Also those delivered to a turn's agent while it ran (steering).
      answered: new Set(
        plan.previous.flatMap((turn) => [...(turn.record.comments ?? []), ...(turn.record.steered ?? [])]),
      ),
      ...(plan.previous.length > 0 ? { lastTurnAt: plan.previous.at(-1)?.record.at } : {}),
      log: context.log,
    });
  } catch (error) {
    context.log(
      `earlier requests in the thread could not be read: ${error instanceof Error ? error.message : String(error)}`,
    );
    return [];
  }
}

/** The comments a turn takes up, for its record: its own mention's and the missed ones. */
export function takenUpComments(job: RunJob, missed: readonly MissedMention[]): number[] {
  return [...(job.source.kind === 'issue_comment' ? [job.source.commentId] : []), ...missed.map((m) => m.commentId)];
}

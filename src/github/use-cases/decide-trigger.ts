import { randomUUID } from 'node:crypto';
import { errorText } from '../../core/errors/error-text.ts';
import { answerFromCommand, isDecisionCommand } from '../approvals/answer-from.ts';
import type { ApprovalAnswer } from '../approvals/github-approval-channel.ts';
import { checkAgentAdapters } from '../config/check-agent-adapters.ts';
import { loadRepoConfig } from '../config/load-repo-config.ts';
import type { RepoConfigResult } from '../config/parse-repo-config.ts';
import { defaultRepoConfig, type RepoConfig } from '../config/repo-config-schema.ts';
import type { CommentRef, GitHubApi, RepoInfo, RepoRef, ReviewCommentInfo } from '../github-api.ts';
import { MARKER_PREFIX } from '../github-names.ts';
import {
  type DailyStanding,
  dailyLimitsOf,
  dailyStandings,
  overLimitReason,
  reachedLimit,
  type SpendLimits,
} from '../limits/daily-limits.ts';
import { reviewRequestOf } from '../review/review-request.ts';
import { sanitizeText } from '../sanitize/sanitize-text.ts';
import { type AgentPromptInput, buildAgentPrompt } from '../sanitize/untrusted-prompt.ts';
import { looksLikeRequest } from '../trigger/looks-like-request.ts';
import { type Command, defaultTriggerPhrase, parseCommand } from '../trigger/parse-command.ts';
import { readTriggerEvent } from '../trigger/read-trigger-event.ts';
import type { Actor, TriggerEvent } from '../trigger/trigger-event.ts';
import { TriggerPayloadError } from '../trigger/trigger-payload-error.ts';
import { authorizeActor } from '../trust/authorize-actor.ts';
import { isBotAccount, isOwnLogin } from '../trust/is-own-login.ts';
import { allowedAgents } from './allowed-agents.ts';
import { reviewCommentsOf } from './review-comments-of.ts';
import type { RunJob } from './run-job.ts';

/** What a front end's GitHub session gives the use cases. */
export interface GitHubDeps {
  api: GitHubApi;
  /** The logins agent-mux posts as (`github-actions[bot]`, `<app-slug>[bot]`): they never trigger or approve. */
  selfLogins: readonly string[];
  /** Ids of the adapters the front end can run: an agent name that is one of them needs no config entry. */
  builtinAgents: readonly string[];
  /** Where daily spending is kept (`limits.budget.daily`, the app's per installation); absent, none is kept. */
  spend?: SpendLimits;
  log?: (line: string) => void;
}

/** Settings a front end may impose over the repository config (the Action's inputs). */
export interface TriggerOverrides {
  phrase?: string;
  agent?: string;
  allowedBots?: readonly string[];
  configPath?: string;
  /** A direct prompt (the Action's `prompt` input, `workflow_dispatch`). */
  prompt?: string;
}

export type TriggerDecision =
  /** `malformed`: the payload lacks what its event must carry (a stand-in's or a test's mistake, not GitHub's). */
  | { kind: 'ignore'; reason: string; malformed?: true }
  | {
      kind: 'refused';
      reason: string;
      event: TriggerEvent;
      /** Set when the agent asked for (by the command, the front end or the config) is not one it knows. */
      unknownAgent?: { name: string; known: string[] };
      /** Said on the issue or pull request (`actOnTrigger` posts it); a quiet refusal has none. */
      comment?: string;
    }
  /** `defaultBranch`: where the config was read (the report tells the user to fix it there). */
  | { kind: 'config_error'; message: string; event: TriggerEvent; defaultBranch: string }
  | { kind: 'cancel'; repo: RepoRef; number: number | undefined; actor: Actor; event: TriggerEvent }
  | { kind: 'answer'; repo: RepoRef; number: number | undefined; answer: ApprovalAnswer; event: TriggerEvent }
  | { kind: 'run'; job: RunJob; event: TriggerEvent };

/** The one role that may be told a config is invalid when the config (and so its own role) cannot be read. */
const INVALID_CONFIG_ROLE = defaultRepoConfig().trigger.permission;

/**
 * Reads one GitHub event and decides what it asks for: nothing, a run, a cancel, an answer to an
 * approval, a refusal (with the text to say) or a config error to report. Applies the trust rules
 * on the way: own comments and unlisted bots never trigger, the actor needs the configured
 * permission, the config comes from the default branch, fork pull requests follow the config.
 * It only reads GitHub: what the decision asks to be written (the `eyes` reaction, a refusal's
 * comment, a config error's report) `actOnTrigger` writes.
 */
export async function decideTrigger(
  deps: GitHubDeps,
  input: { eventName: string; payload: unknown; deliveryId?: string },
  overrides: TriggerOverrides = {},
): Promise<TriggerDecision> {
  const read = readEvent(deps, input);
  if (read.kind === 'ignore') return read;
  const { event } = read;

  // Every run waits for the actor's permission: read it meanwhile when the event looks like a request.
  const api = looksLikeRequest(event, overrides.phrase ?? defaultTriggerPhrase)
    ? withPermissionAhead(deps.api, event)
    : deps.api;
  const { repoInfo, read: configRead } = await readRepoAndConfig(api, event, overrides.configPath);
  // An agent on an adapter this host cannot run is a config error (with its line), as a bad field is.
  const badAdapters = configRead.ok
    ? checkAgentAdapters(configRead.config, deps.builtinAgents, configRead.path)
    : undefined;
  const loaded =
    badAdapters === undefined ? configRead : { ok: false as const, error: badAdapters, path: configRead.path };
  if (!loaded.ok) return decideOnInvalidConfig(deps, api, event, overrides, loaded, repoInfo.defaultBranch);

  const config = loaded.config;
  const phrase = overrides.phrase ?? config.trigger.phrase;
  const agents = [...new Set([...Object.keys(config.agents), ...deps.builtinAgents])];
  const command =
    event.source.kind === 'dispatch'
      ? ({ kind: 'run', prompt: overrides.prompt ?? event.text } satisfies Command)
      : commandOf(event, phrase, agents, deps.selfLogins, config);
  if (command === undefined) return { kind: 'ignore', reason: 'no command for agent-mux in the event' };

  if (isDecisionCommand(command)) {
    return {
      kind: 'answer',
      repo: event.repo,
      number: event.number,
      event,
      // A comment's answer carries the comment (a refused one gets a reaction there) and its time.
      answer: answerFromCommand(command, { actor: event.actor, ...writtenIn(event) }),
    };
  }

  const allowedBots = overrides.allowedBots ?? config.trigger.allowedBots;
  const decision = await authorizeActor({
    api,
    repo: event.repo,
    actor: event.actor,
    selfLogins: deps.selfLogins,
    allowedBots,
    minimumRole: config.trigger.permission,
  });
  if (!decision.allowed) {
    deps.log?.(`refused @${event.actor.login}: ${decision.reason}`);
    return { kind: 'refused', reason: decision.reason, event };
  }
  if (command.kind === 'cancel')
    return { kind: 'cancel', repo: event.repo, number: event.number, actor: event.actor, event };

  if (event.isPullRequest && event.number !== undefined && config.trigger.forkPullRequests === 'refuse') {
    const pull = await api.getPull(event.repo, event.number);
    if (pull.fromFork) {
      const reason = 'this repository’s agent-mux config refuses pull requests from forks';
      return { kind: 'refused', reason, event, comment: refusalComment(reason) };
    }
  }

  const agentName = command.agent ?? overrides.agent ?? config.defaultAgent;
  const unknown = refusedAgent(config, agentName, deps.builtinAgents, event);
  if (unknown) return unknown;
  const over = await overDailyLimit(deps, config, event);
  if (over) return over;
  const job = await runJobOf({ api, deps, input, overrides, event, command, config, agentName, repoInfo });
  return { kind: 'run', job, event };
}

/**
 * A refusal when a daily limit is already spent (it says when the limit resets), or when today's
 * spending cannot be read: a limit that cannot be counted is not waived.
 */
async function overDailyLimit(
  deps: GitHubDeps,
  config: RepoConfig,
  event: TriggerEvent,
): Promise<TriggerDecision | undefined> {
  if (deps.spend === undefined) return undefined;
  const limits = dailyLimitsOf(deps.spend, event.repo, config.limits.budget.daily);
  if (limits.length === 0) return undefined;
  const now = deps.spend.now?.() ?? new Date();
  let reached: DailyStanding | undefined;
  try {
    reached = reachedLimit(await dailyStandings(deps.spend, limits, now));
  } catch (error) {
    const reason = `today's spending against the daily limit could not be read (${errorText(error)})`;
    return { kind: 'refused', reason, event, comment: refusalComment(reason) };
  }
  if (reached === undefined) return undefined;
  const reason = overLimitReason(reached, now);
  return { kind: 'refused', reason, event, comment: refusalComment(reason) };
}

/** The event read: a decision to ignore it (malformed, nothing that starts a run, agent-mux's own), or it. */
function readEvent(
  deps: GitHubDeps,
  input: { eventName: string; payload: unknown },
): { kind: 'event'; event: TriggerEvent } | Extract<TriggerDecision, { kind: 'ignore' }> {
  let event: TriggerEvent | undefined;
  try {
    event = readTriggerEvent(input.eventName, input.payload);
  } catch (error) {
    if (!TriggerPayloadError.isInstance(error)) throw error;
    deps.log?.(error.message);
    return { kind: 'ignore', reason: error.message, malformed: true };
  }
  if (event === undefined) return { kind: 'ignore', reason: `${input.eventName} does not start anything` };
  const own = ownEvent(event, deps.selfLogins);
  if (own !== undefined) return { kind: 'ignore', reason: own };
  return { kind: 'event', event };
}

/**
 * A request while the config cannot be read: a config error reported to a user who holds the
 * schema's default role (anyone else is refused), judged by the default phrase and built-in agents.
 */
async function decideOnInvalidConfig(
  deps: GitHubDeps,
  api: GitHubApi,
  event: TriggerEvent,
  overrides: TriggerOverrides,
  loaded: { error: { message: string }; path: string },
  defaultBranch: string,
): Promise<TriggerDecision> {
  const phrase = overrides.phrase ?? defaultTriggerPhrase;
  const command = commandOf(event, phrase, deps.builtinAgents, deps.selfLogins, undefined);
  if (command === undefined || command.kind !== 'run') {
    return { kind: 'ignore', reason: `no command (and ${loaded.path} is invalid)` };
  }
  const decision = await authorizeActor({
    api,
    repo: event.repo,
    actor: event.actor,
    selfLogins: deps.selfLogins,
    allowedBots: overrides.allowedBots ?? [],
    minimumRole: INVALID_CONFIG_ROLE,
  });
  if (!decision.allowed) return { kind: 'refused', reason: decision.reason, event };
  return { kind: 'config_error', message: loaded.error.message, event, defaultBranch };
}

/** A refusal when `agentName` is not an agent this repository lets run (with a did-you-mean's list). */
function refusedAgent(
  config: RepoConfig,
  agentName: string,
  builtinAgents: readonly string[],
  event: TriggerEvent,
): TriggerDecision | undefined {
  const allowed = allowedAgents(config, builtinAgents);
  if (allowed.includes(agentName)) return undefined;
  const configured = Object.keys(config.agents);
  const reason =
    configured.length > 0 && builtinAgents.includes(agentName)
      ? `the agent "${agentName}" is not one of this repository's agents (${allowed.join(', ')}): .github/agent-mux.yml lists which may run`
      : `no agent named "${agentName}" (configured: ${configured.join(', ') || 'none'})`;
  return {
    kind: 'refused',
    reason,
    event,
    unknownAgent: { name: agentName, known: allowed },
    comment: refusalComment(reason),
  };
}

/** The job a run request makes: the sanitized instruction, the agent's prompt, the conversation's hints. */
async function runJobOf(input: {
  api: GitHubApi;
  deps: GitHubDeps;
  input: { deliveryId?: string };
  overrides: TriggerOverrides;
  event: TriggerEvent;
  command: Extract<Command, { kind: 'run' }>;
  config: RepoConfig;
  agentName: string;
  repoInfo: { defaultBranch: string };
}): Promise<RunJob> {
  const { api, deps, overrides, event, command, config, agentName, repoInfo } = input;
  const instruction = sanitizeText(command.prompt).trim() || defaultInstruction(event);
  const reviewComments = await reviewCommentsOf(api, event, deps.log);
  const review = event.isPullRequest ? reviewRequestOf(instruction) : undefined;
  return {
    id: input.input.deliveryId ?? randomUUID(),
    repo: event.repo,
    number: event.number,
    isPullRequest: event.isPullRequest,
    actor: event.actor,
    source: event.source,
    agentName,
    instruction,
    prompt: buildAgentPrompt({
      instruction,
      repository: `${event.repo.owner}/${event.repo.repo}`,
      number: event.number,
      isPullRequest: event.isPullRequest,
      title: event.title,
      body: event.issueBody,
      requestedBy: event.actor.login,
      ...reviewPromptFields(event, reviewComments),
    }),
    title: event.title,
    ...(reviewComments.length > 0 ? { reviewComments } : {}),
    ...(review ? { review } : {}),
    conversation: {
      ...(command.fresh ? { fresh: true } : {}),
      agentNamed: command.agent !== undefined || overrides.agent !== undefined,
    },
    config,
    defaultBranch: repoInfo.defaultBranch,
    requestedAt: new Date().toISOString(),
  };
}

/** `api`, whose `getPermission` of the event's actor on its repository is already under way. */
function withPermissionAhead(api: GitHubApi, event: TriggerEvent): GitHubApi {
  const login = event.actor.login.trim();
  if (login === '' || isBotAccount(event.actor)) return api;
  const ahead = api.getPermission(event.repo, login);
  ahead.catch(() => {}); // a failure is the answer authorizeActor gets (and reports)
  return {
    ...api,
    getPermission: (repo, user) =>
      repo.owner === event.repo.owner && repo.repo === event.repo.repo && user === login
        ? ahead
        : api.getPermission(repo, user),
  };
}

/**
 * The repository and its config, from its default branch as GitHub has it now. The config is read
 * from the branch the payload names while the repository is read, side by side (the start of
 * every run waits for both); only when GitHub's default branch is another one is it read again.
 */
async function readRepoAndConfig(
  api: GitHubApi,
  event: TriggerEvent,
  path: string | undefined,
): Promise<{ repoInfo: RepoInfo; read: RepoConfigResult }> {
  const load = (defaultBranch: string) => loadRepoConfig({ api, repo: event.repo, path, defaultBranch });
  const ahead = event.defaultBranch === undefined ? undefined : load(event.defaultBranch);
  ahead?.catch(() => {}); // awaited below, or dropped when the branch was not the default one
  const repoInfo = await api.getRepo(event.repo);
  const read =
    ahead !== undefined && event.defaultBranch === repoInfo.defaultBranch
      ? await ahead
      : await load(repoInfo.defaultBranch);
  return { repoInfo, read };
}

/**
 * Whether a comment may ask agent-mux anything, decided before the expensive part of
 * {@link decideTrigger} (the adapter registry, permission, pull request, reaction) with the same
 * reading: false for agent-mux's own comments and for text with no command under the repository's
 * trigger phrase (read through `api`, which a front end may cache). Other events, and payloads
 * `decideTrigger` will refuse, are left to it (true).
 */
export async function mayAskAgent(
  deps: Pick<GitHubDeps, 'api' | 'selfLogins'>,
  input: { eventName: string; payload: unknown },
): Promise<boolean> {
  if (input.eventName !== 'issue_comment' && input.eventName !== 'pull_request_review_comment') return true;
  let event: TriggerEvent | undefined;
  try {
    event = readTriggerEvent(input.eventName, input.payload);
  } catch {
    return true; // decideTrigger says why
  }
  if (event === undefined) return true;
  if (ownEvent(event, deps.selfLogins) !== undefined) return false;
  if (parseCommand(event.text, { agents: [] }) !== undefined) return true;
  const loaded = await loadRepoConfig({ api: deps.api, repo: event.repo });
  if (!loaded.ok) return false;
  return parseCommand(event.text, { phrase: loaded.config.trigger.phrase, agents: [] }) !== undefined;
}

/** The comment an event's text was written in, with when (a review's body answers without them). */
function writtenIn(event: TriggerEvent): { source?: CommentRef; givenAt?: string } {
  const source = event.source;
  if (source.kind !== 'issue_comment' && source.kind !== 'review_comment') return {};
  return { source, ...(event.givenAt === undefined ? {} : { givenAt: event.givenAt }) };
}

/** Why an event is agent-mux's own (its account, or its comment's marker), or undefined when it is not. */
function ownEvent(event: TriggerEvent, selfLogins: readonly string[]): string | undefined {
  if (isOwnLogin(event.actor.login, selfLogins)) return 'the event is agent-mux’s own';
  if (event.text.includes(MARKER_PREFIX) && event.source.kind !== 'issue') return 'the text is an agent-mux comment';
  return undefined;
}

function commandOf(
  event: TriggerEvent,
  phrase: string,
  agents: readonly string[],
  selfLogins: readonly string[],
  config: RepoConfig | undefined,
): Command | undefined {
  const source = event.source;
  if (source.kind === 'pull_request') {
    // An automatic review, where the repository asks for one on this action (never of a draft).
    const review = config?.review;
    if (!review?.on.includes(source.action) || source.draft) return undefined;
    return { kind: 'run', prompt: 'review', ...(review.agent ? { agent: review.agent } : {}) };
  }
  if (source.kind !== 'issue') return parseCommand(event.text, { phrase, agents });
  if (source.action === 'opened') {
    const command = parseCommand(event.text, { phrase, agents });
    return command?.kind === 'run' ? command : undefined;
  }
  if (source.action === 'assigned') {
    const onAssign = config?.trigger.onAssign ?? true;
    const assignee = source.assignee?.toLowerCase();
    return onAssign && assignee !== undefined && selfLogins.some((l) => l.toLowerCase() === assignee)
      ? { kind: 'run', prompt: '' }
      : undefined;
  }
  const label = config?.trigger.label;
  return label && source.label === label ? { kind: 'run', prompt: '' } : undefined;
}

/** The review comments as the prompt shows them, and where the request was written. */
function reviewPromptFields(
  event: TriggerEvent,
  comments: readonly ReviewCommentInfo[],
): Pick<AgentPromptInput, 'reviewComments' | 'askedIn'> {
  const kind = event.source.kind;
  if (kind !== 'review_comment' && kind !== 'review') return {};
  return {
    askedIn: kind,
    reviewComments: comments.map((c) => ({ ...c, author: c.user?.login ?? 'unknown' })),
  };
}

function defaultInstruction(event: TriggerEvent): string {
  return event.isPullRequest
    ? 'Review this pull request and make the changes it needs.'
    : 'Resolve this issue: make the change it asks for in the repository.';
}

/** What a refusal says where it was asked. */
function refusalComment(reason: string): string {
  return `agent-mux did not start: ${reason}.`;
}

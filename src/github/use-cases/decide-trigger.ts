import { randomUUID } from 'node:crypto';
import { answerFromCommand } from '../approvals/answer-from.ts';
import type { ApprovalAnswer } from '../approvals/github-approval-channel.ts';
import { checkAgentAdapters } from '../config/check-agent-adapters.ts';
import { loadRepoConfig } from '../config/load-repo-config.ts';
import type { RepoConfigResult } from '../config/parse-repo-config.ts';
import type { RepoConfig } from '../config/repo-config-schema.ts';
import type { CommentRef, GitHubApi, RepoInfo, RepoRef, ReviewCommentInfo } from '../github-api.ts';
import { MARKER_PREFIX, markers } from '../github-names.ts';
import { looksLikeRequest } from '../trigger/looks-like-request.ts';
import { type Command, defaultTriggerPhrase, parseCommand } from '../trigger/parse-command.ts';
import { readTriggerEvent } from '../trigger/read-trigger-event.ts';
import type { Actor, TriggerEvent } from '../trigger/trigger-event.ts';
import { TriggerPayloadError } from '../trigger/trigger-payload-error.ts';
import { authorizeActor } from '../trust/authorize-actor.ts';
import { isBotAccount, isOwnLogin } from '../trust/is-own-login.ts';
import { sanitizeText } from '../trust/sanitize-text.ts';
import { type AgentPromptInput, buildAgentPrompt } from '../trust/untrusted-prompt.ts';
import { allowedAgents } from './allowed-agents.ts';
import { reportConfigError } from './report-config-error.ts';
import { reviewCommentsOf } from './review-comments-of.ts';
import type { RunJob } from './run-job.ts';

/** What a front end's GitHub session gives the use cases. */
export interface GitHubDeps {
  api: GitHubApi;
  /** The logins agent-mux posts as (`github-actions[bot]`, `<app-slug>[bot]`): they never trigger or approve. */
  selfLogins: readonly string[];
  /** Ids of the adapters the front end can run: an agent name that is one of them needs no config entry. */
  builtinAgents: readonly string[];
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
    }
  | { kind: 'config_error'; message: string; event: TriggerEvent }
  | { kind: 'cancel'; repo: RepoRef; number: number | undefined; actor: Actor; event: TriggerEvent }
  | { kind: 'answer'; repo: RepoRef; number: number | undefined; answer: ApprovalAnswer; event: TriggerEvent }
  | {
      kind: 'run';
      job: RunJob;
      event: TriggerEvent;
      /** The `eyes` reaction; settled already unless `acknowledgeInBackground` was asked. Never rejects. */
      acknowledged: Promise<void>;
    };

/** How `decideTrigger` behaves (not what it decides). */
export interface DecideOptions {
  /**
   * Return a `run` decision without waiting for the `eyes` reaction (a write behind GitHub's write
   * throttle): the Action starts the agent meanwhile. Default false.
   */
  acknowledgeInBackground?: boolean;
}

/**
 * Reads one GitHub event and decides what it asks for: nothing, a run, a cancel, or an answer
 * to an approval. Applies the trust rules on the way: own comments and unlisted bots never
 * trigger, the actor needs the configured permission, the config comes from the default branch,
 * fork pull requests follow the config. Acknowledges an accepted run with an `eyes` reaction.
 */
export async function decideTrigger(
  deps: GitHubDeps,
  input: { eventName: string; payload: unknown; deliveryId?: string },
  overrides: TriggerOverrides = {},
  options: DecideOptions = {},
): Promise<TriggerDecision> {
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

  // Every run waits for the actor's permission: read it meanwhile when the event looks like a request.
  const api = looksLikeRequest(event, overrides.phrase ?? defaultTriggerPhrase)
    ? withPermissionAhead(deps.api, event)
    : deps.api;
  const { repoInfo, read } = await readRepoAndConfig(api, event, overrides.configPath);
  // An agent on an adapter this host cannot run is a config error (with its line), as a bad field is.
  const badAdapters = read.ok ? checkAgentAdapters(read.config, deps.builtinAgents, read.path) : undefined;
  const loaded = badAdapters === undefined ? read : { ok: false as const, error: badAdapters, path: read.path };
  const fallbackPhrase = overrides.phrase ?? defaultTriggerPhrase;
  if (!loaded.ok) {
    const command = commandOf(event, fallbackPhrase, deps.builtinAgents, deps.selfLogins, undefined);
    if (command === undefined || command.kind !== 'run') {
      return { kind: 'ignore', reason: `no command (and ${loaded.path} is invalid)` };
    }
    const decision = await authorizeActor({
      api,
      repo: event.repo,
      actor: event.actor,
      selfLogins: deps.selfLogins,
      allowedBots: overrides.allowedBots ?? [],
      minimumRole: 'write',
    });
    if (!decision.allowed) return { kind: 'refused', reason: decision.reason, event };
    await reportConfigError(api, event, repoInfo.defaultBranch, loaded.error.message);
    return { kind: 'config_error', message: loaded.error.message, event };
  }

  const config = loaded.config;
  const phrase = overrides.phrase ?? config.trigger.phrase;
  const agents = [...new Set([...Object.keys(config.agents), ...deps.builtinAgents])];
  const command =
    event.source.kind === 'dispatch'
      ? ({ kind: 'run', prompt: overrides.prompt ?? event.text } satisfies Command)
      : commandOf(event, phrase, agents, deps.selfLogins, config);
  if (command === undefined) return { kind: 'ignore', reason: 'no command for agent-mux in the event' };

  if (command.kind === 'approve' || command.kind === 'deny') {
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
      await api.createComment(event.repo, event.number, `${markers.refusal}\nagent-mux did not start: ${reason}.`);
      return { kind: 'refused', reason, event };
    }
  }

  const agentName = command.agent ?? overrides.agent ?? config.defaultAgent;
  const allowed = allowedAgents(config, deps.builtinAgents);
  if (!allowed.includes(agentName)) {
    const configured = Object.keys(config.agents);
    const reason =
      configured.length > 0 && deps.builtinAgents.includes(agentName)
        ? `the agent "${agentName}" is not one of this repository's agents (${allowed.join(', ')}): .github/agent-mux.yml lists which may run`
        : `no agent named "${agentName}" (configured: ${configured.join(', ') || 'none'})`;
    if (event.number !== undefined) {
      await api.createComment(event.repo, event.number, `${markers.refusal}\nagent-mux did not start: ${reason}.`);
    }
    return { kind: 'refused', reason, event, unknownAgent: { name: agentName, known: allowed } };
  }

  const acknowledged = acknowledge(api, event, deps.log);
  if (!options.acknowledgeInBackground) await acknowledged;
  const instruction = sanitizeText(command.prompt).trim() || defaultInstruction(event);
  const reviewComments = await reviewCommentsOf(api, event, deps.log);
  const job: RunJob = {
    id: input.deliveryId ?? randomUUID(),
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
    conversation: {
      ...(command.kind === 'run' && command.fresh ? { fresh: true } : {}),
      agentNamed: command.agent !== undefined || overrides.agent !== undefined,
    },
    config,
    defaultBranch: repoInfo.defaultBranch,
    requestedAt: new Date().toISOString(),
  };
  return { kind: 'run', job, event, acknowledged };
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

/** The `eyes` reaction on what triggered the run; a failure is only logged. */
async function acknowledge(api: GitHubApi, event: TriggerEvent, log?: (line: string) => void): Promise<void> {
  const source = event.source;
  try {
    if (source.kind === 'issue_comment') {
      await api.addReaction(event.repo, { kind: 'issue_comment', commentId: source.commentId }, 'eyes');
    } else if (source.kind === 'review_comment') {
      await api.addReaction(event.repo, { kind: 'review_comment', commentId: source.commentId }, 'eyes');
    } else if (source.kind === 'issue' && event.number !== undefined) {
      await api.addReaction(event.repo, { kind: 'issue', issueNumber: event.number }, 'eyes');
    }
  } catch (error) {
    log?.(`could not add the eyes reaction: ${error instanceof Error ? error.message : String(error)}`);
  }
}

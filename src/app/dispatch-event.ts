import type { AdapterRegistry } from '../core/registry/adapter-registry.ts';
import type { ApprovalAnswer } from '../github/approvals/github-approval-channel.ts';
import { loadRepoConfig } from '../github/config/load-repo-config.ts';
import type { GitHubApi } from '../github/github-api.ts';
import { parseCommand } from '../github/trigger/parse-command.ts';
import { readTriggerEvent } from '../github/trigger/read-trigger-event.ts';
import { decideTrigger } from '../github/use-cases/decide-trigger.ts';
import { answerSuperseded } from './answer-superseded.ts';
import { parseActionIdentifier } from './check-run-actions.ts';
import type { InstallationAccess } from './installation-access.ts';
import type { RepoReadCache } from './repo-read-cache.ts';
import { runKeys } from './store/run-keys.ts';
import type { RunStore, StoredEvent } from './store/run-store.ts';

/** What a dispatcher needs. */
export interface DispatchDeps {
  store: RunStore;
  access: InstallationAccess;
  selfLogins: readonly string[];
  registry: () => AdapterRegistry;
  log: (line: string) => void;
  /** Shares repository and config reads between events (a burst of comments reads them once). */
  repoReads?: RepoReadCache;
  /** Called at named points of the dispatch (`after-decide`): the crash tests' hook (`testCrashPoint`). */
  checkpoint?: (point: DispatchPoint) => void;
}

/** Points of a dispatch where `checkpoint` is called. */
export type DispatchPoint = 'after-take' | 'after-decide' | 'after-dispatch';

/** What one event led to. */
export type DispatchResult =
  | { kind: 'enqueued'; runId: string; cancelled: string[] }
  | { kind: 'cancel'; runIds: string[] }
  | { kind: 'answer'; issueKey: string }
  | { kind: 'void'; issueKey: string }
  | { kind: 'ignored'; reason: string };

/**
 * Turns one recorded webhook into what it asks, with the shared use case `decideTrigger` for
 * comments, reviews and issues: a run is queued (with the repository config's `concurrency.perIssue`),
 * a cancel marks the issue's runs, an answer is stored for the worker that waits on it. The app's
 * own approval inputs are read here too: `pull_request.synchronize` voids the pull request's pending
 * approvals, a check-run button (`approve:<id>` / `deny:<id>`) and an approving or changes-requesting
 * review become answers. Whether an answer counts (approver rule, head commit) is the worker's
 * approval channel's decision.
 */
export async function dispatchEvent(deps: DispatchDeps, event: StoredEvent): Promise<DispatchResult> {
  const { store } = deps;
  const payload = asRecord(event.payload);
  const action = typeof payload.action === 'string' ? payload.action : '';
  const repo = repoOf(payload);
  const sender = actorOf(payload.sender);

  if (event.name === 'pull_request' && action === 'synchronize') {
    const number = numberOf(asRecord(payload.pull_request).number);
    if (repo === undefined || number === undefined) return { kind: 'ignored', reason: 'no pull request' };
    const issueKey = issueKeyOf(repo, number);
    const after = typeof payload.after === 'string' ? payload.after.slice(0, 7) : 'a new commit';
    await store.addAnswer(
      { kind: 'void', issueKey, reason: `a new commit (${after}) was pushed to the pull request` },
      event.deliveryId,
    );
    return { kind: 'void', issueKey };
  }

  if (event.name === 'check_run' && action === 'requested_action') {
    const identifier = asRecord(payload.requested_action).identifier;
    const parsed = typeof identifier === 'string' ? parseActionIdentifier(identifier) : undefined;
    if (parsed === undefined || sender === undefined) return { kind: 'ignored', reason: 'not an approval button' };
    const externalId = asRecord(payload.check_run).external_id;
    const run = typeof externalId === 'string' && externalId !== '' ? await store.get(externalId) : undefined;
    if (
      run === undefined ||
      repo === undefined ||
      run.repoKey.toLowerCase() !== `${repo.owner}/${repo.repo}`.toLowerCase()
    ) {
      return { kind: 'ignored', reason: 'the check run is not an agent-mux run of this repository' };
    }
    // A button carries at most ACTION_ID_LENGTH characters of the id (all of a short id): the full
    // id is stored when it is known; otherwise the run's channel resolves it, and answers on GitHub
    // a press that does not count.
    const pending = await store.pendingApprovals({ runId: run.id });
    const matches = pending.filter((p) => p.approvalId.startsWith(parsed.approvalIdPrefix));
    await answer(
      run.issueKey,
      {
        approvalId: matches.length === 1 ? matches[0]!.approvalId : parsed.approvalIdPrefix,
        decision: parsed.decision,
        actor: sender,
        via: 'check_run',
      },
      true,
    );
    return { kind: 'answer', issueKey: run.issueKey };
  }

  let reviewed: DispatchResult | undefined;
  if (event.name === 'pull_request_review' && action === 'submitted') {
    const review = asRecord(payload.review);
    const state = typeof review.state === 'string' ? review.state.toLowerCase() : '';
    const number = numberOf(asRecord(payload.pull_request).number);
    if ((state === 'approved' || state === 'changes_requested') && repo && number !== undefined && sender) {
      const issueKey = issueKeyOf(repo, number);
      const body = typeof review.body === 'string' ? review.body.trim() : '';
      // With a body the review may also ask something: the event is completed by what that leads to.
      await answer(
        issueKey,
        {
          decision: state === 'approved' ? 'approve' : 'deny',
          reason: state === 'changes_requested' ? body || undefined : undefined,
          actor: sender,
          commitSha: typeof review.commit_id === 'string' ? review.commit_id : undefined,
          via: 'review',
          givenAt: typeof review.submitted_at === 'string' ? review.submitted_at : undefined,
        },
        body === '',
      );
      reviewed = { kind: 'answer', issueKey };
      if (body === '') return reviewed;
    }
  }

  // Only a comment as it was written: an edit (`edited`) may be someone else's change to it.
  if ((event.name === 'issue_comment' || event.name === 'pull_request_review_comment') && action !== 'created') {
    return { kind: 'ignored', reason: `${event.name}.${action || '?'} starts and answers nothing` };
  }
  if (event.installationId === undefined) return reviewed ?? { kind: 'ignored', reason: 'no installation' };
  const direct = await deps.access.api(event.installationId);
  const api = deps.repoReads?.wrap(event.installationId, direct) ?? direct;
  if (!(await mayAsk(api, event, deps.selfLogins))) {
    return reviewed ?? { kind: 'ignored', reason: 'no command for agent-mux in the comment' };
  }
  const registry = deps.registry();
  const decision = await decideTrigger(
    { api, selfLogins: deps.selfLogins, builtinAgents: registry.ids(), log: deps.log },
    { eventName: event.name, payload: event.payload, deliveryId: event.deliveryId },
  );
  deps.checkpoint?.('after-decide');
  switch (decision.kind) {
    case 'ignore':
    case 'refused':
      return reviewed ?? { kind: 'ignored', reason: decision.reason };
    case 'config_error':
      return reviewed ?? { kind: 'ignored', reason: `invalid config: ${decision.message}` };
    case 'cancel': {
      const runIds = await store.requestCancel(issueKeyOf(decision.repo, decision.number));
      return { kind: 'cancel', runIds };
    }
    case 'answer': {
      const issueKey = issueKeyOf(decision.repo, decision.number);
      const source = decision.event.source;
      const createdAt = asRecord(payload.comment).created_at;
      await answer(
        issueKey,
        source.kind === 'issue_comment' || source.kind === 'review_comment'
          ? {
              ...decision.answer,
              source: { kind: source.kind, commentId: source.commentId },
              givenAt: typeof createdAt === 'string' ? createdAt : undefined,
            }
          : decision.answer,
        true,
      );
      return { kind: 'answer', issueKey };
    }
    case 'run': {
      const job = decision.job;
      const { run, cancelled } = await store.enqueue({
        job,
        installationId: event.installationId,
        adapter: job.config.agents[job.agentName]?.adapter ?? job.agentName,
        perIssue: job.config.concurrency.perIssue,
        deliveryId: event.deliveryId,
      });
      deps.log(`queued run ${run.id} (${job.agentName}) for ${run.issueKey}`);
      return { kind: 'enqueued', runId: run.id, cancelled };
    }
  }

  /** `last`: nothing follows this answer, so the event is completed with it (one transaction). */
  async function answer(issueKey: string, value: ApprovalAnswer, last: boolean): Promise<void> {
    // An answer to a dead attempt's request (recovery superseded it) is told so at once and not recorded.
    if (
      await answerSuperseded({
        store,
        access: deps.access,
        installationId: event.installationId,
        issueKey,
        answer: value,
        log: deps.log,
      })
    ) {
      if (last) await store.completeEvent(event.deliveryId);
      return;
    }
    await store.addAnswer({ kind: 'answer', issueKey, answer: value }, last ? event.deliveryId : undefined);
  }
}

/**
 * Whether a comment may ask agent-mux anything, decided before the expensive part of `decideTrigger`
 * (permission, pull request, reaction): its text is parsed (pure) with the repository's trigger phrase,
 * read through the shared repository cache. Other events (issues opened, labeled, assigned; reviews
 * with a body) always go on.
 */
async function mayAsk(api: GitHubApi, stored: StoredEvent, selfLogins: readonly string[]): Promise<boolean> {
  if (stored.name !== 'issue_comment' && stored.name !== 'pull_request_review_comment') return true;
  let event: ReturnType<typeof readTriggerEvent>;
  try {
    event = readTriggerEvent(stored.name, stored.payload);
  } catch {
    return true; // decideTrigger says why
  }
  if (event === undefined) return true;
  if (selfLogins.some((login) => login.toLowerCase() === event.actor.login.toLowerCase())) return false;
  if (parseCommand(event.text, { agents: [] }) !== undefined) return true;
  const loaded = await loadRepoConfig({ api, repo: event.repo });
  if (!loaded.ok) return false;
  return parseCommand(event.text, { phrase: loaded.config.trigger.phrase, agents: [] }) !== undefined;
}

function asRecord(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
}

function numberOf(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isInteger(value) && value > 0 ? value : undefined;
}

function repoOf(payload: Record<string, unknown>): { owner: string; repo: string } | undefined {
  const repository = asRecord(payload.repository);
  const owner = asRecord(repository.owner).login;
  const name = repository.name;
  return typeof owner === 'string' && typeof name === 'string' ? { owner, repo: name } : undefined;
}

function actorOf(value: unknown): { login: string; type: string } | undefined {
  const user = asRecord(value);
  return typeof user.login === 'string'
    ? { login: user.login, type: typeof user.type === 'string' ? user.type : 'User' }
    : undefined;
}

function issueKeyOf(repo: { owner: string; repo: string }, number: number | undefined): string {
  return runKeys({ repo, number }).issueKey;
}

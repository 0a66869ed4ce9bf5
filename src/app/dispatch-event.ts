import type { AdapterRegistry } from '../core/registry/adapter-registry.ts';
import { answerFromButton } from '../github/approvals/answer-from.ts';
import type { ApprovalAnswer } from '../github/approvals/github-approval-channel.ts';
import { matchApprovalId } from '../github/approvals/match-approval-id.ts';
import { type ApprovalEvent, readApprovalEvent } from '../github/trigger/read-approval-event.ts';
import { TriggerPayloadError } from '../github/trigger/trigger-payload-error.ts';
import { mayAskAgent } from '../github/use-cases/decide-trigger.ts';
import { handleTrigger } from '../github/use-cases/handle-trigger.ts';
import { answerSuperseded } from './answer-superseded.ts';
import { conversationKeyOf } from './conversation-key.ts';
import type { InstallationAccess } from './installation-access.ts';
import { limitKey } from './limit-key.ts';
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
  /**
   * Awaited before each event is dispatched: resolves once a burst of webhooks being received has
   * passed (or a bounded wait did), so that dispatching does not slow their acknowledgement.
   */
  quiet?: () => Promise<void>;
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
 * Turns one recorded webhook into store operations. What it asks is read by the shared readers the
 * Action uses too: `readApprovalEvent` (a push voids the pull request's pending approvals; a
 * check-run button and an approving or changes-requesting review are answers) and `handleTrigger`
 * (comments, reviews with a body, issues: a run, a cancel, a `/approve` or `/deny` answer). Here a
 * run is queued (with the repository config's `concurrency.perIssue`), a cancel marks the issue's
 * runs, an answer is stored for the worker that waits on it; a button's id prefix is resolved
 * against the run's stored pending approvals. Whether an answer counts (approver rule, head
 * commit) is the worker's approval channel's decision.
 */
export async function dispatchEvent(deps: DispatchDeps, event: StoredEvent): Promise<DispatchResult> {
  const { store } = deps;
  let approval: ApprovalEvent | undefined;
  try {
    approval = readApprovalEvent(event.name, event.payload);
  } catch (error) {
    if (!TriggerPayloadError.isInstance(error)) throw error;
    deps.log(error.message);
    return { kind: 'ignored', reason: error.message };
  }

  if (approval?.kind === 'void') {
    const issueKey = issueKeyOf(approval.repo, approval.number);
    await store.addAnswer({ kind: 'void', issueKey, reason: approval.reason }, event.deliveryId);
    return { kind: 'void', issueKey };
  }

  if (approval?.kind === 'button') {
    const { repo, checkRunExternalId } = approval;
    const run = checkRunExternalId === undefined ? undefined : await store.get(checkRunExternalId);
    if (run === undefined || run.repoKey.toLowerCase() !== `${repo.owner}/${repo.repo}`.toLowerCase()) {
      return { kind: 'ignored', reason: 'the check run is not an agent-mux run of this repository' };
    }
    // A button carries at most ACTION_ID_LENGTH characters of the id (all of a short id): the full
    // id is stored when it is known; otherwise the run's channel resolves it, and answers on GitHub
    // a press that does not count.
    const pending = await store.pendingApprovals({ runId: run.id });
    const named = matchApprovalId(
      approval.press.approvalIdPrefix,
      pending.map((p) => p.approvalId),
    );
    const approvalId = named.length === 1 ? named[0]! : approval.press.approvalIdPrefix;
    await answer(run.issueKey, answerFromButton(approval.press, approval.actor, approvalId), true);
    return { kind: 'answer', issueKey: run.issueKey };
  }

  let reviewed: DispatchResult | undefined;
  if (approval?.kind === 'answer') {
    const issueKey = issueKeyOf(approval.repo, approval.number);
    // With a body the review may also ask something: the event is completed by what that leads to.
    await answer(issueKey, approval.answer, !approval.alsoAsks);
    reviewed = { kind: 'answer', issueKey };
    if (!approval.alsoAsks) return reviewed;
  }

  // Only a comment as it was written: an edit (`edited`) may be someone else's change to it.
  const action = actionOf(event.payload);
  if ((event.name === 'issue_comment' || event.name === 'pull_request_review_comment') && action !== 'created') {
    return { kind: 'ignored', reason: `${event.name}.${action || '?'} starts and answers nothing` };
  }
  if (event.installationId === undefined) return reviewed ?? { kind: 'ignored', reason: 'no installation' };
  const direct = await deps.access.api(event.installationId);
  const api = deps.repoReads?.wrap(event.installationId, direct) ?? direct;
  if (!(await mayAskAgent({ api, selfLogins: deps.selfLogins }, { eventName: event.name, payload: event.payload }))) {
    return reviewed ?? { kind: 'ignored', reason: 'no command for agent-mux in the comment' };
  }
  const registry = deps.registry();
  const decision = await handleTrigger(
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
      await answer(issueKey, decision.answer, true);
      return { kind: 'answer', issueKey };
    }
    case 'run': {
      const job = decision.job;
      // A turn on the pull request opened for an issue waits for the issue's turns, and they for it.
      const conversationKey = await conversationKeyOf(api, job, deps.log);
      const { run, cancelled } = await store.enqueue({
        job,
        installationId: event.installationId,
        adapter: limitKey(job.config, job.agentName),
        perIssue: job.config.concurrency.perIssue,
        deliveryId: event.deliveryId,
        ...(conversationKey ? { conversationKey } : {}),
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

/** The webhook's `action` (`created`, `edited`, …); `''` when it has none. */
function actionOf(payload: unknown): string {
  const action = typeof payload === 'object' && payload !== null ? (payload as { action?: unknown }).action : undefined;
  return typeof action === 'string' ? action : '';
}

function issueKeyOf(repo: { owner: string; repo: string }, number: number | undefined): string {
  return runKeys({ repo, number }).issueKey;
}

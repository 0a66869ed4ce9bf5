import type { GitHubApi } from '../github/github-api.ts';
import type { SteerCandidate } from '../github/steering/run-steering.ts';
import type { ActedTrigger } from '../github/use-cases/act-on-trigger.ts';
import { mayAskAgent } from '../github/use-cases/decide-trigger.ts';
import { handleTrigger } from '../github/use-cases/handle-trigger.ts';
import { appSpendLimits } from './app-spend-limits.ts';
import type { DispatchDeps, DispatchResult } from './dispatch-deps.ts';
import { issueKeyOf } from './issue-key-of.ts';
import { queueRun } from './queue-run.ts';
import { recordAnswer } from './record-answer.ts';
import type { StoredEvent } from './store/run-store.ts';

/** A trigger `handleTrigger` decided and acted on, with the installation it came through. */
interface DecidedTrigger {
  event: StoredEvent & { installationId: number };
  api: GitHubApi;
  decision: ActedTrigger;
}

/**
 * A comment, a review with a body or an issue event, as `handleTrigger` reads it: a run queued, a
 * cancel marking the issue's runs, a `/approve` or `/deny` answer stored. `reviewed`: what the
 * event's review answer led to already, returned when the event asks for nothing more.
 */
export async function dispatchTrigger(
  deps: DispatchDeps,
  event: StoredEvent,
  reviewed: DispatchResult | undefined,
): Promise<DispatchResult> {
  // Only a comment as it was written: an edit (`edited`) may be someone else's change to it.
  const action = actionOf(event.payload);
  if ((event.name === 'issue_comment' || event.name === 'pull_request_review_comment') && action !== 'created') {
    return { kind: 'ignored', reason: `${event.name}.${action || '?'} starts and answers nothing` };
  }
  const { installationId } = event;
  if (installationId === undefined) return reviewed ?? { kind: 'ignored', reason: 'no installation' };
  const direct = await deps.access.api(installationId);
  const api = deps.repoReads?.wrap(installationId, direct) ?? direct;
  if (!(await mayAskAgent({ api, selfLogins: deps.selfLogins }, { eventName: event.name, payload: event.payload }))) {
    return reviewed ?? { kind: 'ignored', reason: 'no command for agent-mux in the comment' };
  }
  const registry = deps.registry();
  const decision = await handleTrigger(
    {
      api,
      selfLogins: deps.selfLogins,
      builtinAgents: registry.ids(),
      spend: appSpendLimits(deps.store, { installationDaily: deps.installationDaily }, installationId),
      log: deps.log,
    },
    { eventName: event.name, payload: event.payload, deliveryId: event.deliveryId },
  );
  deps.checkpoint?.('after-decide');
  return dispatchDecision(deps, { event: { ...event, installationId }, api, decision }, reviewed);
}

/** The store operation a decision asks for. */
async function dispatchDecision(
  deps: DispatchDeps,
  { event, api, decision }: DecidedTrigger,
  reviewed: DispatchResult | undefined,
): Promise<DispatchResult> {
  switch (decision.kind) {
    case 'ignore':
    case 'refused':
      return reviewed ?? { kind: 'ignored', reason: decision.reason };
    case 'config_error':
      return reviewed ?? { kind: 'ignored', reason: `invalid config: ${decision.message}` };
    case 'cancel': {
      const runIds = await deps.store.requestCancel(issueKeyOf(decision.repo, decision.number));
      return { kind: 'cancel', runIds };
    }
    case 'answer': {
      const issueKey = issueKeyOf(decision.repo, decision.number);
      await recordAnswer(deps, event, issueKey, decision.answer, true);
      return { kind: 'answer', issueKey };
    }
    case 'run':
      await offerToRunningAgent(deps, decision);
      return queueRun(deps, api, event, decision.job);
  }
}

/**
 * A mention on an issue or pull request (in a comment, or in a review comment: a reply in the run's
 * review thread, say) whose run is in progress (and whose config queues rather
 * than cancels): offered to that run's agent too, through the store, to whichever worker holds it
 * (steering). The mention's own run is queued as ever: it waits for that run and, when the
 * running agent took the mention, ends at once (`steeredEarlier`).
 */
async function offerToRunningAgent(
  deps: DispatchDeps,
  decision: Extract<ActedTrigger, { kind: 'run' }>,
): Promise<void> {
  const { job, event } = decision;
  const { source } = event;
  if ((source.kind !== 'issue_comment' && source.kind !== 'review_comment') || job.number === undefined) return;
  if (job.config.concurrency.perIssue !== 'queue') return;
  const issueKey = issueKeyOf(job.repo, job.number);
  const running = await deps.store.list({ states: ['running', 'awaiting_approval'], issueKey });
  if (running.length === 0) return;
  const steer: SteerCandidate = {
    commentId: source.commentId,
    body: event.text,
    actor: { login: event.actor.login, type: event.actor.type },
    source: { kind: source.kind, commentId: source.commentId },
  };
  await deps.store.addAnswer({ kind: 'steer', issueKey, steer });
  deps.log(`mention ${steer.commentId} offered to the run in progress on ${issueKey}`);
}

/** The webhook's `action` (`created`, `edited`, …); `''` when it has none. */
function actionOf(payload: unknown): string {
  const action = typeof payload === 'object' && payload !== null ? (payload as { action?: unknown }).action : undefined;
  return typeof action === 'string' ? action : '';
}

import { type ApprovalEvent, readApprovalEvent } from '../github/trigger/read-approval-event.ts';
import { TriggerPayloadError } from '../github/trigger/trigger-payload-error.ts';
import { dispatchButtonPress } from './dispatch-button-press.ts';
import type { DispatchDeps, DispatchResult } from './dispatch-deps.ts';
import { dispatchTrigger } from './dispatch-trigger.ts';
import { issueKeyOf } from './issue-key-of.ts';
import { recordAnswer } from './record-answer.ts';
import type { StoredEvent } from './store/run-store.ts';

export type { DispatchDeps, DispatchPoint, DispatchResult } from './dispatch-deps.ts';

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
    await deps.store.addAnswer({ kind: 'void', issueKey, reason: approval.reason }, event.deliveryId);
    // The push may also start an automatic review (`review.on: [synchronize]`).
    return dispatchTrigger(deps, event, { kind: 'void', issueKey });
  }

  if (approval?.kind === 'button') return dispatchButtonPress(deps, event, approval);

  let reviewed: DispatchResult | undefined;
  if (approval?.kind === 'answer') {
    const issueKey = issueKeyOf(approval.repo, approval.number);
    // With a body the review may also ask something: the event is completed by what that leads to.
    await recordAnswer(deps, event, issueKey, approval.answer, !approval.alsoAsks);
    reviewed = { kind: 'answer', issueKey };
    if (!approval.alsoAsks) return reviewed;
  }

  return dispatchTrigger(deps, event, reviewed);
}

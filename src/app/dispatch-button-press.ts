import { answerFromButton } from '../github/approvals/answer-from.ts';
import { matchApprovalId } from '../github/approvals/match-approval-id.ts';
import type { ApprovalEvent } from '../github/trigger/read-approval-event.ts';
import type { DispatchDeps, DispatchResult } from './dispatch-deps.ts';
import { recordAnswer } from './record-answer.ts';
import type { StoredEvent } from './store/run-store.ts';

/**
 * A check-run button pressed: an answer to the run's approval, its id prefix resolved against the
 * run's stored pending approvals. Ignored when the check run is not an agent-mux run of the repository.
 */
export async function dispatchButtonPress(
  deps: DispatchDeps,
  event: StoredEvent,
  approval: Extract<ApprovalEvent, { kind: 'button' }>,
): Promise<DispatchResult> {
  const { store } = deps;
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
  await recordAnswer(deps, event, run.issueKey, answerFromButton(approval.press, approval.actor, approvalId), true);
  return { kind: 'answer', issueKey: run.issueKey };
}

import type { ApprovalAnswer } from '../github/approvals/github-approval-channel.ts';
import { answerSuperseded } from './answer-superseded.ts';
import type { DispatchDeps } from './dispatch-deps.ts';
import type { StoredEvent } from './store/run-store.ts';

/**
 * Stores an answer for the worker that waits on it. `last`: nothing follows this answer, so the
 * event is completed with it (one transaction).
 */
export async function recordAnswer(
  deps: Pick<DispatchDeps, 'store' | 'access' | 'log'>,
  event: Pick<StoredEvent, 'deliveryId' | 'installationId'>,
  issueKey: string,
  answer: ApprovalAnswer,
  last: boolean,
): Promise<void> {
  const { store } = deps;
  // An answer to a dead attempt's request (recovery superseded it) is told so at once and not recorded.
  if (
    await answerSuperseded({
      store,
      access: deps.access,
      installationId: event.installationId,
      issueKey,
      answer,
      log: deps.log,
    })
  ) {
    if (last) await store.completeEvent(event.deliveryId);
    return;
  }
  await store.addAnswer({ kind: 'answer', issueKey, answer }, last ? event.deliveryId : undefined);
}

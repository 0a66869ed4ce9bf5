import type { EventDraft } from '../events/index.ts';
import type { ApprovalChannel, ApprovalDecision, ApprovalRequest } from './approval-channel.ts';

export interface AwaitApprovalOptions {
  /** Where the question goes. Without one, it is denied at once (`timedOut: true`). */
  channel: ApprovalChannel | undefined;
  request: ApprovalRequest;
  /** Once aborted, the question is denied with `abortedReason`. */
  signal: AbortSignal;
  /** How long the question may stay open before it counts as denied (`timedOut: true`). */
  timeoutMs: number;
  /** The denial's reason when `signal` aborts before a decision. */
  abortedReason: string;
  /** Receives the `approval_request` and `approval_granted` / `approval_denied` drafts; must not throw. */
  emit: (draft: EventDraft) => void;
}

/**
 * Asks the approval channel about one tool call and reports it: an `approval_request` draft, then
 * `approval_granted` or `approval_denied`. Never rejects: no channel, no answer within `timeoutMs`,
 * an aborted signal, a failing channel or an answer that is not a decision are all denials.
 */
export async function awaitApproval(options: AwaitApprovalOptions): Promise<ApprovalDecision> {
  const { request, emit } = options;
  emit({
    type: 'approval_request',
    approvalId: request.approvalId,
    toolName: request.toolName,
    input: request.input,
    reason: request.reason,
    ...(request.toolCallId === undefined ? {} : { toolCallId: request.toolCallId }),
  });
  const decision = await waitForDecision(options);
  if (decision.kind === 'approve') {
    emit({ type: 'approval_granted', approvalId: request.approvalId, scope: decision.scope, by: decision.by });
  } else {
    emit({
      type: 'approval_denied',
      approvalId: request.approvalId,
      reason: decision.reason,
      by: decision.by,
      timedOut: decision.timedOut,
    });
  }
  return decision;
}

async function waitForDecision(options: AwaitApprovalOptions): Promise<ApprovalDecision> {
  const { channel, request, signal, timeoutMs } = options;
  if (channel === undefined) {
    return { kind: 'deny', reason: 'no approval channel is configured for this run', timedOut: true };
  }
  const timeout = AbortSignal.timeout(timeoutMs);
  const waitSignal = AbortSignal.any([signal, timeout]);
  const onStop = (): ApprovalDecision =>
    timeout.aborted && !signal.aborted
      ? { kind: 'deny', reason: `no decision within ${timeoutMs} ms`, timedOut: true }
      : { kind: 'deny', reason: options.abortedReason };
  if (waitSignal.aborted) return onStop();

  let removeListener = (): void => {};
  const stopped = new Promise<ApprovalDecision>((resolve) => {
    const listener = () => resolve(onStop());
    waitSignal.addEventListener('abort', listener, { once: true });
    removeListener = () => waitSignal.removeEventListener('abort', listener);
  });
  const answered = Promise.resolve()
    .then(() => channel.request(request, waitSignal))
    .then(normalizeDecision, (error: unknown) => ({
      kind: 'deny' as const,
      reason: `the approval channel failed: ${error instanceof Error ? error.message : String(error)}`,
    }));
  try {
    const decision = await Promise.race([answered, stopped]);
    // A channel that saw the same abort may answer first with its own words; ours are exact.
    return decision.kind === 'deny' && waitSignal.aborted ? onStop() : decision;
  } finally {
    removeListener();
  }
}

/** A channel that answers something other than a decision is treated as a denial. */
function normalizeDecision(decision: ApprovalDecision): ApprovalDecision {
  if (decision?.kind === 'approve') {
    return { kind: 'approve', scope: decision.scope === 'always' ? 'always' : 'once', by: decision.by };
  }
  if (decision?.kind === 'deny') return decision;
  return { kind: 'deny', reason: 'the approval channel gave no decision' };
}

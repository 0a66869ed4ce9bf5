import type { ApprovalChannel, ApprovalDecision, ApprovalRequest } from './approval-channel.ts';

export interface MemoryApprovalChannelOptions {
  /** Called when a request arrives, e.g. to show it or answer it. A listener that throws denies it. */
  onRequest?: (request: ApprovalRequest) => void;
  /** A request still open after this long is denied with `timedOut: true`. Default: wait for the signal. */
  timeoutMs?: number;
}

/** An approval channel answered in code: a front end (or a test) reads `pending()` and calls `resolve`. */
export interface MemoryApprovalChannel extends ApprovalChannel {
  /** Answers an open request. False when it is unknown or already settled. */
  resolve(approvalId: string, decision: ApprovalDecision): boolean;
  /** The open requests, oldest first. */
  pending(): ApprovalRequest[];
}

interface Pending {
  request: ApprovalRequest;
  settle: (decision: ApprovalDecision) => void;
}

export function createMemoryApprovalChannel(options: MemoryApprovalChannelOptions = {}): MemoryApprovalChannel {
  const open = new Map<string, Pending>();

  function request(approval: ApprovalRequest, signal: AbortSignal): Promise<ApprovalDecision> {
    if (signal.aborted) return Promise.resolve(aborted());
    if (open.has(approval.approvalId)) {
      return Promise.resolve({ kind: 'deny', reason: `approval ${approval.approvalId} is already pending` });
    }
    return new Promise<ApprovalDecision>((resolvePromise) => {
      let timer: NodeJS.Timeout | undefined;
      const onAbort = () => settle(aborted());
      const settle = (decision: ApprovalDecision) => {
        if (open.get(approval.approvalId)?.settle !== settle) return;
        open.delete(approval.approvalId);
        clearTimeout(timer);
        signal.removeEventListener('abort', onAbort);
        resolvePromise(decision);
      };
      open.set(approval.approvalId, { request: approval, settle });
      signal.addEventListener('abort', onAbort, { once: true });
      if (options.timeoutMs !== undefined) {
        const timeoutMs = options.timeoutMs;
        timer = setTimeout(
          () => settle({ kind: 'deny', reason: `no decision within ${timeoutMs} ms`, timedOut: true }),
          timeoutMs,
        );
      }
      try {
        options.onRequest?.(approval);
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        settle({ kind: 'deny', reason: `the approval listener failed: ${message}` });
      }
    });
  }

  return {
    request,
    resolve(approvalId, decision) {
      const entry = open.get(approvalId);
      if (entry === undefined) return false;
      entry.settle(decision);
      return true;
    },
    pending: () => [...open.values()].map((entry) => entry.request),
  };
}

function aborted(): ApprovalDecision {
  return { kind: 'deny', reason: 'the run was aborted before a decision' };
}

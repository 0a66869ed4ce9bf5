import type { ApprovalChannel, ApprovalDecision } from './approval-channel.ts';

export interface AutoApprovalOptions {
  /** Recorded as `by` on every decision. Default `auto`. */
  by?: string;
  /** The scope of approvals. Default `once`. */
  scope?: 'once' | 'always';
  /** Why a request is denied (`deny`). Default: tool approvals are denied in this non-interactive run. */
  reason?: string;
}

/** Answers every request at once, the same way: for non-interactive runs (`--approve` / `--deny`). */
export function autoApprovalChannel(answer: 'approve' | 'deny', options: AutoApprovalOptions = {}): ApprovalChannel {
  const by = options.by ?? 'auto';
  const decision: ApprovalDecision =
    answer === 'approve'
      ? { kind: 'approve', scope: options.scope ?? 'once', by }
      : { kind: 'deny', reason: options.reason ?? 'tool approvals are denied in this non-interactive run', by };
  return {
    request: async (_request, signal) =>
      signal.aborted && answer === 'approve'
        ? { kind: 'deny', reason: 'the run was aborted before a decision' }
        : { ...decision },
  };
}

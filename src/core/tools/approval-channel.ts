/** A question to a human: may this tool run with these arguments? */
export interface ApprovalRequest {
  approvalId: string;
  runId: string;
  toolName: string;
  input: unknown;
  reason?: string;
  toolCallId?: string;
}

export type ApprovalDecision =
  | { kind: 'approve'; scope: 'once' | 'always'; by?: string }
  | { kind: 'deny'; reason: string; by?: string; timedOut?: boolean };

/**
 * Where approval requests go and their answers come from. A front end implements it:
 * the CLI asks on the terminal, the Action and the app ask on GitHub.
 */
export interface ApprovalChannel {
  /** Resolves with the decision; never rejects (a timeout or abort is a denial). */
  request(request: ApprovalRequest, signal: AbortSignal): Promise<ApprovalDecision>;
}

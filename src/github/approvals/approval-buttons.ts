import type { CheckRunAction } from '../github-api.ts';
import { BUDGET_TOOL_NAME, type PendingApproval } from './github-approval-channel.ts';

/** How many characters of an approval id fit in a button identifier (`approve:` + id ≤ 20). */
export const ACTION_ID_LENGTH = 12;

/** What a press of an approval button says: the decision and (a prefix of) the approval's id. */
export interface ButtonPress {
  decision: 'approve' | 'deny';
  approvalIdPrefix: string;
}

/**
 * The check run's Approve / Deny buttons for the oldest pending tool approval (GitHub allows three
 * buttons; the others are answered by comment or review). Identifiers are `approve:<id>` /
 * `deny:<id>` with the id cut to {@link ACTION_ID_LENGTH} characters; labels ≤ 20, descriptions ≤ 40.
 */
export function approvalActions(pending: readonly PendingApproval[]): CheckRunAction[] {
  // A paused budget is answered with `/budget <amount>`: no button can say how much.
  const first = pending.find((p) => p.toolName !== BUDGET_TOOL_NAME);
  if (first === undefined) return [];
  const id = first.approvalId.slice(0, ACTION_ID_LENGTH);
  const tool = first.toolName;
  return [
    { label: 'Approve', description: cut(`Let the agent run ${tool}`, 40), identifier: `approve:${id}` },
    { label: 'Deny', description: cut(`Refuse ${tool}`, 40), identifier: `deny:${id}` },
  ];
}

/** Reads a button identifier made by {@link approvalActions}; undefined for any other. */
export function parseActionIdentifier(identifier: string): ButtonPress | undefined {
  const match = /^(approve|deny):(\S+)$/.exec(identifier);
  if (match === null) return undefined;
  return { decision: match[1] === 'approve' ? 'approve' : 'deny', approvalIdPrefix: match[2]! };
}

function cut(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

import { APPROVAL_ID_MIN_PREFIX } from '../../core/tools/create-approval-id.ts';

/**
 * The ids among `ids` that an approval id typed on GitHub (a `/approve <id>` comment, a button's
 * shortened id) names, case-insensitively: the one it equals, else every one it starts when it has
 * at least {@link APPROVAL_ID_MIN_PREFIX} characters (ids are 8 characters; any unique prefix of 4
 * or more stands for one). One id back is an answer to it; none or several answer nothing.
 */
export function matchApprovalId(typed: string, ids: readonly string[]): string[] {
  const lower = typed.toLowerCase();
  const exact = ids.filter((id) => id.toLowerCase() === lower);
  if (exact.length > 0 || lower.length < APPROVAL_ID_MIN_PREFIX) return exact;
  return ids.filter((id) => id.toLowerCase().startsWith(lower));
}

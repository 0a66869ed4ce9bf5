/**
 * A run with no issue or pull request (`workflow_dispatch` without `issue-number`) has nowhere to
 * ask for approvals: what its policy would ask about is denied at once with this reason (never
 * reported as timed out), and the run says so before the agent starts. A run that was refused
 * everything and changed nothing then ends neutral, never ✅ (`claimed-changes.ts`).
 */
export const UNATTENDED_REASON =
  'nobody can approve in this run: it has no issue or pull request to ask on (dispatch it with the issue-number input, or allow the tool in the policy)';

/** What the run says before the agent starts, in the log and the check run. */
export const UNATTENDED_NOTE =
  'this run has no issue or pull request (dispatched without issue-number): tool calls the policy would ask about are denied, since there is nowhere to ask; give issue-number to ask on that issue, or allow the tools in .github/agent-mux.yml';

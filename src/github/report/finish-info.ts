/** How a run ended, as the front end reports it once everything (git, pull request) is done. */
export interface FinishInfo {
  conclusion: 'success' | 'failure' | 'cancelled' | 'timed_out';
  /** Why it failed, was cancelled or timed out; shown as is. */
  reason?: string;
  /** The branch the agent's commits were pushed to. */
  branch?: string;
  pullRequestUrl?: string;
  /** True when the agent finished but changed nothing. */
  noChanges?: boolean;
}

/** `succeeded`, `failed`, `cancelled`, `timed out`. */
export function conclusionWord(conclusion: FinishInfo['conclusion']): string {
  return { success: 'succeeded', failure: 'failed', cancelled: 'cancelled', timed_out: 'timed out' }[conclusion];
}

/**
 * The webhook events `simulate` accepts: those that can start a run (what readTriggerEvent in
 * src/github/trigger reads; a test checks the two agree on every event GitHub documents).
 */
export const SIMULATED_EVENT_NAMES = [
  'issue_comment',
  'pull_request_review_comment',
  'pull_request_review',
  'issues',
  'pull_request',
  'workflow_dispatch',
] as const;

export type SimulatedEventName = (typeof SIMULATED_EVENT_NAMES)[number];

export const isSimulatedEventName = (name: string): name is SimulatedEventName =>
  (SIMULATED_EVENT_NAMES as readonly string[]).includes(name);

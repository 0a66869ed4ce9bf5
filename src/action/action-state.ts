/** The names under which the main step saves what the post step needs (`core.saveState`). */
export const STATE = {
  runId: 'runId',
  /** The marker this step's agent processes carry (`agentMarker`): the post step kills those only. */
  agentMarker: 'agentMarker',
  checkRunId: 'checkRunId',
  commentId: 'commentId',
  done: 'done',
} as const;

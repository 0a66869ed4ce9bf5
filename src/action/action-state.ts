/** The names under which the main step saves what the post step needs (`core.saveState`). */
export const STATE = { runId: 'runId', checkRunId: 'checkRunId', commentId: 'commentId', done: 'done' } as const;

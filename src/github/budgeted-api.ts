import type { GitHubApi } from './github-api.ts';
import type { WriteBudget } from './pacing/write-budget.ts';

/** The `GitHubApi` methods that write (POST, PATCH, PUT, DELETE); every other method reads. */
export const WRITE_METHODS = [
  'addReaction',
  'createComment',
  'updateComment',
  'createCheckRun',
  'updateCheckRun',
  'createPull',
  'requestReviewers',
  'replyToReviewComment',
  'createReview',
  'cancelWorkflowRun',
] as const satisfies readonly (keyof GitHubApi)[];

/**
 * The same API with every write counted as urgent on `budget` (`WriteBudget.urgent`): the first
 * feedback, approval requests and results go ahead of the live updates of the runs sharing the
 * budget. A live update's own calls (made inside `WriteBudget.live`) are not counted. Reads pass as they are.
 */
export function budgetedApi(api: GitHubApi, budget: WriteBudget): GitHubApi {
  const out: GitHubApi = { ...api };
  // Each write method keeps its own signature; the loop only needs to call it with what it was given.
  const methods = out as unknown as Record<string, (...args: unknown[]) => Promise<unknown>>;
  for (const name of WRITE_METHODS) {
    const write = methods[name]!;
    methods[name] = (...args) => budget.urgent(() => write.apply(api, args));
  }
  return out;
}

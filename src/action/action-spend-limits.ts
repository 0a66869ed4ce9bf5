import type { GitHubApi } from '../github/github-api.ts';
import type { SpendLimits } from '../github/limits/daily-limits.ts';
import { SpendLedgerError } from '../github/limits/spend-ledger-error.ts';
import { createActionsCacheSpendLedger } from './actions-cache-spend-ledger.ts';
import { actionsCacheAvailable } from './conversation-cache-store.ts';

/**
 * Where the Action keeps daily spending (`limits.budget.daily`): entries of each run in the Actions
 * cache, listed through `api` (the workflow token, with `actions: read`). A runner without the cache
 * service cannot count a day, so a repository that sets a daily limit is refused there with that
 * reason rather than run without its limit.
 */
export function actionSpendLimits(env: NodeJS.ProcessEnv, api: Pick<GitHubApi, 'listActionsCaches'>): SpendLimits {
  const [owner, repo, ...rest] = (env.GITHUB_REPOSITORY ?? '').split('/');
  if (env.RUNNER_TEMP && actionsCacheAvailable(env) && owner && repo && rest.length === 0) {
    return { ledger: createActionsCacheSpendLedger({ api, repo: { owner, repo } }) };
  }
  const unavailable = async (): Promise<never> => {
    throw new SpendLedgerError(
      'spend_load_failed',
      'limits.budget.daily is counted in the Actions cache, which this runner does not offer (no RUNNER_TEMP or GITHUB_REPOSITORY, or neither ACTIONS_CACHE_URL nor ACTIONS_RESULTS_URL is set)',
    );
  };
  return { ledger: { spentOn: unavailable, add: unavailable } };
}

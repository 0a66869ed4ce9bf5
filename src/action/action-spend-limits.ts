import { join } from 'node:path';
import type { SpendLimits } from '../github/limits/daily-limits.ts';
import { SpendLedgerError } from '../github/limits/spend-ledger-error.ts';
import { createActionsCacheSpendLedger } from './actions-cache-spend-ledger.ts';
import { actionsCacheAvailable } from './conversation-cache-store.ts';

/**
 * Where the Action keeps daily spending (`limits.budget.daily`): the Actions cache, beside the
 * conversations. A runner without the cache service cannot count a day, so a repository that sets
 * a daily limit is refused there with that reason rather than run without its limit.
 */
export function actionSpendLimits(env: NodeJS.ProcessEnv): SpendLimits {
  if (env.RUNNER_TEMP && actionsCacheAvailable(env)) {
    return { ledger: createActionsCacheSpendLedger({ stagingDir: join(env.RUNNER_TEMP, 'agent-mux-spend') }) };
  }
  const unavailable = async (): Promise<never> => {
    throw new SpendLedgerError(
      'spend_load_failed',
      'limits.budget.daily is counted in the Actions cache, which this runner does not offer (no RUNNER_TEMP, or neither ACTIONS_CACHE_URL nor ACTIONS_RESULTS_URL is set)',
    );
  };
  return { ledger: { spentOn: unavailable, add: unavailable } };
}

import type { SpendLimits } from '../github/limits/daily-limits.ts';
import type { AppSettings } from './app-settings.ts';
import type { RunStore } from './store/run-store.ts';

/**
 * The app's daily limits: spending kept in its store (one count for every replica; each addition is
 * one atomic statement), the repository's `limits.budget.daily` and the installation's own
 * (`AGENT_MUX_INSTALLATION_DAILY_USD` / `_TOKENS`).
 */
export function appSpendLimits(
  store: Pick<RunStore, 'spentOn' | 'addSpend'>,
  settings: Pick<AppSettings, 'installationDaily'>,
  installationId: number | undefined,
): SpendLimits {
  const daily = settings.installationDaily;
  return {
    ledger: {
      spentOn: (scope, day) => store.spentOn(scope, day),
      add: (scope, day, spend) => store.addSpend(scope, day, spend),
      shared: true,
    },
    extra: () =>
      daily === undefined || installationId === undefined
        ? []
        : [{ scope: `installation:${installationId}`, label: 'this installation', limit: daily }],
  };
}

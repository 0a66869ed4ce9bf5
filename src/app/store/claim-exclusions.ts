import type { ConcurrencyLimits } from './run-store.ts';

/** A run in flight, as far as the concurrency rules care. */
export interface InFlightKeys {
  issueKey: string;
  repoKey: string;
  adapter: string;
  /** The conversation the run is a turn of, when it is not its issue's (a pull request agent-mux opened for an issue). */
  conversationKey?: string;
  /** The installation (tenant) the run is of, as text; '' for none. */
  installation?: string;
}

/**
 * What a claim must skip, worked out from the runs in flight: issues (and conversations) with a run in flight, repositories
 * and adapters at their limit. `onlyAdapters` is set when unlisted adapters may not run at all
 * (`defaultPerAdapter` ≤ 0); `none` when nothing may start (`perRepo` ≤ 0).
 */
export interface ClaimExclusions {
  none: boolean;
  issues: string[];
  repos: string[];
  adapters: string[];
  onlyAdapters: string[] | undefined;
  /** Installations at their cap (`perInstallation`), as text ('' for runs without one). */
  installations: string[];
}

function countBy(items: readonly InFlightKeys[], key: (item: InFlightKeys) => string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const item of items) counts.set(key(item), (counts.get(key(item)) ?? 0) + 1);
  return counts;
}

/** The exclusions for one claim (pure; both backends compute them inside the claim's transaction). */
export function claimExclusions(inFlight: readonly InFlightKeys[], limits: ConcurrencyLimits): ClaimExclusions {
  const limitOf = (adapter: string) => limits.perAdapter[adapter] ?? limits.defaultPerAdapter;
  // A queued run waits while its issue or its conversation has a run in flight (a run is skipped
  // when its issue key or its conversation key is among these).
  const issues = [
    ...new Set(inFlight.flatMap((run) => (run.conversationKey ? [run.issueKey, run.conversationKey] : [run.issueKey]))),
  ];
  const repos = [...countBy(inFlight, (run) => run.repoKey)].filter(([, n]) => n >= limits.perRepo).map(([k]) => k);
  const adapterCounts = countBy(inFlight, (run) => run.adapter);
  const adapters = new Set([...adapterCounts].filter(([id, n]) => n >= limitOf(id)).map(([id]) => id));
  for (const [id, limit] of Object.entries(limits.perAdapter)) if (limit <= 0) adapters.add(id);
  const onlyAdapters =
    limits.defaultPerAdapter <= 0
      ? Object.entries(limits.perAdapter)
          .filter(([id, limit]) => limit > (adapterCounts.get(id) ?? 0))
          .map(([id]) => id)
      : undefined;
  const cap = limits.perInstallation;
  const installations =
    cap === undefined
      ? []
      : [...countBy(inFlight, (run) => run.installation ?? '')].filter(([, n]) => n >= cap).map(([k]) => k);
  return { none: limits.perRepo <= 0, issues, repos, adapters: [...adapters], onlyAdapters, installations };
}

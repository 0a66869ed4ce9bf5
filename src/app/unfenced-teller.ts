import type { FenceProbe } from '../core/sandbox/index.ts';
import { unfencedReason } from './fence-watch.ts';
import { type TellUnfencedDeps, tellUnfenced } from './tell-unfenced.ts';

/** Tells queued runs on GitHub why they wait (see `tellUnfenced`), given a failed probe. */
export type UnfencedTeller = (probe: Extract<FenceProbe, { ok: false }>) => void;

/**
 * A `tellUnfenced` for the workers of one process: at most once per `retryMs` (a failed probe's
 * interval) and one at a time; its failure is logged.
 */
export function createUnfencedTeller(deps: TellUnfencedDeps, retryMs: number): UnfencedTeller {
  const told = new Set<string>();
  let telling: Promise<unknown> | undefined;
  let toldAt = Number.NEGATIVE_INFINITY;
  return (probe) => {
    if (telling || Date.now() - toldAt < retryMs) return;
    toldAt = Date.now();
    telling = tellUnfenced(deps, unfencedReason(probe), told)
      .catch((error: unknown) => deps.log(`telling queued runs why they wait: ${(error as Error).message}`))
      .finally(() => {
        telling = undefined;
      });
  };
}

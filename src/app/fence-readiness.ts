import type { Probot } from 'probot';
import type { FenceProbe } from '../core/sandbox/index.ts';
import type { AppReadiness } from './app-readiness.ts';
import { unfencedReason } from './fence-watch.ts';

/** The app's readiness as its fence works or not. */
export interface FenceReadiness {
  /**
   * The runtime's `onFence`. A fence that does not work: not ready (503 with the reason), said at
   * error level; ready again, by itself, once it works.
   */
  onFence(probe: FenceProbe): void;
  /** The loops started: the app is ready, unless its fence does not work. */
  loopsStarted(): void;
}

export function createFenceReadiness(
  readiness: AppReadiness,
  log: Pick<Probot['log'], 'info' | 'error'>,
): FenceReadiness {
  let fenceFailed = false;
  let loopsReady = false;
  return {
    onFence(probe) {
      if (probe.ok) {
        if (fenceFailed) log.info('agent-mux: the fence works again; queued runs start');
        fenceFailed = false;
        if (loopsReady) readiness.set(true, 'ready');
        return;
      }
      fenceFailed = true;
      const reason = unfencedReason(probe);
      log.error(`agent-mux: ${reason}`);
      readiness.set(false, reason);
    },
    loopsStarted() {
      loopsReady = true;
      if (!fenceFailed) readiness.set(true, 'ready');
    },
  };
}

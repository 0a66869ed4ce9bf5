import type { RequestStop } from './stop-cause.ts';

/**
 * The run's lease expiry (`RunHandle.expireLease`): the run reports `lease_expired`, the agent is told
 * to shut down for that reason, and the run ends `failed`.
 */
export function leaseExpiry(requestStop: RequestStop): () => void {
  return () =>
    requestStop({
      reason: 'failed',
      shutdown: 'lease_expired',
      message: 'lease expired',
      error: { code: 'lease_expired', message: 'the lease of this run expired' },
    });
}

import { errorText } from '../core/errors/error-text.ts';
import type { AppReadiness } from './app-readiness.ts';

/**
 * `recordWebhooks`' `onBacklog`: while the database is away, deliveries are held in memory and
 * acknowledged, so a ready app stays ready (GitHub would not deliver a refused one again), and its
 * readiness says why it waits.
 */
export function backlogReadiness(readiness: AppReadiness): (waiting: number, error?: unknown) => void {
  return (waiting, error) => {
    const state = readiness.state();
    if (!state.ready) return;
    if (waiting > 0) {
      const why = errorText(error ?? 'unreachable');
      readiness.set(
        true,
        `ready; the database is unreachable (${why}): deliveries are held in memory until it is back`,
      );
    } else if (state.reason !== 'ready') readiness.set(true, 'ready');
  };
}

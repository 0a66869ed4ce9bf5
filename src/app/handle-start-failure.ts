import { errorText } from '../core/errors/error-text.ts';
import type { AgentMuxAppOptions } from './agent-mux-app-options.ts';
import type { AppReadiness } from './app-readiness.ts';

/** What `handleStartFailure` needs. */
export interface StartFailureHandling {
  /** The app's stop: a start-up that failed because the app was stopped is no failure. */
  signal: AbortSignal;
  readiness: AppReadiness;
  onStartFailure?: AgentMuxAppOptions['onStartFailure'];
  /** Where the default says it exits. */
  fatal: (line: string) => void;
  /** Closes the store the app opened; never rejects. */
  closeStore: () => Promise<void>;
}

/**
 * Start-up failed for good: not ready, with the reason; then `onStartFailure`, or by default the
 * reason logged as fatal, the store the app opened closed and the process exited with status 1.
 */
export async function handleStartFailure(error: unknown, handling: StartFailureHandling): Promise<void> {
  if (handling.signal.aborted) return;
  const reason = errorText(error);
  handling.readiness.set(false, reason);
  if (handling.onStartFailure !== undefined) return handling.onStartFailure(error);
  handling.fatal(`${reason}; exiting with status 1`);
  await handling.closeStore();
  process.exit(1);
}

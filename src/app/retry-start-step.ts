import { nextDelay, type RetryPolicy, resolveRetryPolicy } from '../core/retry/index.ts';
import { AppStartError } from './app-start-error.ts';

/** Delays between start-up attempts: 1 s doubling to at most 60 s, 20 % jitter (`attempts` is not used). */
export const startRetryPolicy: RetryPolicy = resolveRetryPolicy({ backoffMs: 1000, maxBackoffMs: 60_000, jitter: 0.2 });

/** Options of `retryStartStep`. */
export interface StartStepOptions {
  /** What is being done, as logged (`GET /app`, `opening the store`). */
  step: string;
  /** One line saying why an attempt failed. */
  describe: (error: unknown) => string;
  /** Where each failed attempt is reported (one line each, with the next delay). */
  warn: (line: string) => void;
  /** Called with the reason after each failed attempt (readiness shows it). */
  onFailure?: (reason: string) => void;
  /** Give up at this time (epoch ms) with an `AppStartError`; undefined: retry for ever. */
  giveUpAt?: number;
  /**
   * True for a failure that no retry can heal (a wrong `APP_ID` or private key: the process reads
   * them once): start-up gives up at once with an `AppStartError`. Default: every failure is retried.
   */
  permanent?: (error: unknown) => boolean;
  /** Default `startRetryPolicy`. */
  policy?: RetryPolicy;
  /** Aborting stops the retries: the promise rejects with the signal's reason. */
  signal?: AbortSignal;
  now?: () => number;
  random?: () => number;
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

const abortableSleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

/**
 * Runs `attempt` until it succeeds, waiting `nextDelay(policy, n)` (exponential backoff with jitter)
 * between attempts and logging one line per failure: the step, the attempt number, the reason and the
 * next delay. The last delay is shortened so that one attempt happens at `giveUpAt`; when that one
 * fails too, rejects with an `AppStartError` carrying the last reason.
 */
export async function retryStartStep<T>(attempt: () => Promise<T>, options: StartStepOptions): Promise<T> {
  const policy = options.policy ?? startRetryPolicy;
  const now = options.now ?? Date.now;
  const sleep = options.sleep ?? abortableSleep;
  for (let n = 1; ; n++) {
    if (options.signal?.aborted) throw options.signal.reason;
    try {
      return await attempt();
    } catch (error) {
      if (options.signal?.aborted) throw options.signal.reason;
      const reason = options.describe(error);
      options.onFailure?.(reason);
      const left = options.giveUpAt === undefined ? Number.POSITIVE_INFINITY : options.giveUpAt - now();
      if (options.permanent?.(error)) {
        options.warn(
          `agent-mux start-up: ${options.step} failed (attempt ${n}): ${reason}; no retry can fix this, giving up`,
        );
        throw new AppStartError(options.step, reason, n, { cause: error });
      }
      if (left <= 0) {
        options.warn(`agent-mux start-up: ${options.step} failed (attempt ${n}): ${reason}; giving up`);
        throw new AppStartError(options.step, reason, n, { cause: error });
      }
      const delay = Math.min(nextDelay(policy, n, options.random), left);
      options.warn(
        `agent-mux start-up: ${options.step} failed (attempt ${n}): ${reason}; next attempt in ${seconds(delay)}`,
      );
      await sleep(delay, options.signal);
    }
  }
}

/**
 * Errors that a later attempt of the same work can outlive: the database connection ended (a restart,
 * a failover, `pg_terminate_backend`), the server refused connections for a while, a serialization
 * failure or deadlock, and GitHub's or the network's passing failures (5xx, 429, a reset socket).
 */

/** PostgreSQL SQLSTATE codes of transient failures: connection exceptions (class 08) and these. */
const TRANSIENT_SQLSTATES = new Set([
  '40001', // serialization_failure
  '40P01', // deadlock_detected
  '57P01', // admin_shutdown (pg_terminate_backend, a fast shutdown)
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now (starting up, in recovery)
  '53300', // too_many_connections
  '55P03', // lock_not_available
]);

/** Node's socket errors of a connection that went away or could not be made. */
const TRANSIENT_SOCKET_CODES = new Set([
  'ECONNRESET',
  'ECONNREFUSED',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
  'UND_ERR_SOCKET',
  'UND_ERR_CONNECT_TIMEOUT',
]);

/** What node-postgres says when a connection ends under a query, or a pool cannot get one in time. */
const TRANSIENT_PG_MESSAGES = [
  /connection terminated/i,
  /client has encountered a connection error and is not queryable/i,
  /timeout exceeded when trying to connect/i,
  /connection (?:was )?(?:closed|ended)/i,
  /server closed the connection unexpectedly/i,
];

/** True when `error` (or its `cause`) is a failure that retrying the same work later can get past. */
export function isTransientError(error: unknown, depth = 0): boolean {
  if (typeof error !== 'object' || error === null || depth > 4) return false;
  const { code, status, message, cause } = error as {
    code?: unknown;
    status?: unknown;
    message?: unknown;
    cause?: unknown;
  };
  if (typeof code === 'string') {
    if (TRANSIENT_SQLSTATES.has(code) || /^08[0-9A-Z]{3}$/.test(code) || TRANSIENT_SOCKET_CODES.has(code)) return true;
  }
  if (typeof status === 'number' && (status >= 500 || status === 429)) return true;
  if (typeof message === 'string' && TRANSIENT_PG_MESSAGES.some((pattern) => pattern.test(message))) return true;
  return isTransientError(cause, depth + 1);
}

export interface TransientRetryOptions {
  /** Attempts in all, the first included. Default 4. */
  attempts?: number;
  /** The wait before the second attempt; each later wait is four times the one before. Default 50 ms. */
  firstDelayMs?: number;
  /** Called before each retry with the error and the attempt that failed (1-based). */
  onRetry?: (error: unknown, attempt: number) => void;
}

/**
 * Runs `work`, and again after a transient failure (`isTransientError`), with a growing wait (50, 200,
 * 800 ms by default). `work` must be a whole unit: a transaction that rolled back, or one statement.
 * Throws the last error when every attempt failed, or at once when an error is not transient.
 */
export async function retryTransient<T>(work: () => Promise<T>, options: TransientRetryOptions = {}): Promise<T> {
  const attempts = Math.max(1, options.attempts ?? 4);
  let delay = options.firstDelayMs ?? 50;
  for (let attempt = 1; ; attempt++) {
    try {
      return await work();
    } catch (error) {
      if (attempt >= attempts || !isTransientError(error)) throw error;
      options.onRetry?.(error, attempt);
      await new Promise((resolve) => setTimeout(resolve, delay));
      delay *= 4;
    }
  }
}

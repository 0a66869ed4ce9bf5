import type { ErrorCode } from '../events/index.ts';

/**
 * The error code of an HTTP agent server's refusal: 401 and 403 are `auth`, a 5xx is the server
 * being unavailable (`remote_unavailable`, retried by callers that retry), any other status is the
 * agent's own error.
 */
export function httpStatusErrorCode(status: number): ErrorCode {
  if (status === 401 || status === 403) return 'auth';
  return status >= 500 ? 'remote_unavailable' : 'agent_error';
}

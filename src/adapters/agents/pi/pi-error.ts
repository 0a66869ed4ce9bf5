import type { EventDraft } from '../../../core/events/index.ts';
import { type ProviderErrorTable, providerErrorDraft } from '../../shared/provider-error.ts';

/** What pi's provider SDKs say, beyond the words every provider shares. */
export const PI_ERRORS: ProviderErrorTable = {
  auth: { patterns: [/invalid[ _-]?api[ _-]?key|no api key/i] },
  context: { patterns: [/context[ _-]?overflow|exceeds the context/i] },
  authGuidance: 'Set the provider API key (e.g. ANTHROPIC_API_KEY) or log in with `/login`; see ~/.pi/agent/auth.json.',
};

/**
 * pi reports a failed model request as the assistant message's `errorMessage`, the provider SDK's
 * text: `401 {"type":"error","error":{"type":"authentication_error",…}}`, `429 {…rate_limit_error…}`.
 * omp appends the provider's header as ` retry-after-ms=1000`; others say "try again in 20s".
 */
export function classifyError(message: string): EventDraft {
  const status = /^(\d{3})\b/.exec(message.trim())?.[1];
  const header = /retry-after-ms=(\d+)/i.exec(message)?.[1];
  return providerErrorDraft(message, PI_ERRORS, {
    status: status === undefined ? undefined : Number(status),
    retryAfterMs: header === undefined ? undefined : Number(header),
  });
}

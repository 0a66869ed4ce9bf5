import type { EventDraft } from '../../../core/events/index.ts';
import { type ProviderErrorTable, providerErrorKind } from '../../shared/provider-error.ts';

/** What ACP agents say of provider failures (in JSON-RPC errors and codex-acp's `_meta`), beyond the common words. */
export const ACP_PROVIDER_ERRORS: ProviderErrorTable = {
  auth: { patterns: [/\b40[13]\b|authenticat|api key|forbidden/i] },
  rateLimit: { patterns: [/\b429\b|rate.?limit|resource.?exhausted/i] },
};

/**
 * An agent's error as its typed draft; `status`: the HTTP status the agent gave with it. No wait is
 * read from the words: the run's end decides a retry, and the recorded ACP streams carry none.
 */
export function acpErrorDraft(message: string, status?: number): EventDraft {
  switch (providerErrorKind(message, ACP_PROVIDER_ERRORS, status)) {
    case 'auth':
      return { type: 'auth_error', message };
    case 'rate_limit':
    case 'overloaded':
      return { type: 'rate_limit_error', message };
    case 'context':
      return { type: 'context_exceeded', message };
    default:
      return { type: 'error', code: 'agent_error', message, recoverable: false };
  }
}

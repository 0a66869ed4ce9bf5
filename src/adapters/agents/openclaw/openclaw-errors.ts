import type { EventDraft } from '../../../core/events/index.ts';
import { type ProviderErrorTable, providerErrorDraft } from '../../shared/provider-error.ts';

/** What openclaw prints for provider failures (only as text: `HTTP 401`, `rate limit`), beyond the common words. */
export const OPENCLAW_PROVIDER_ERRORS: ProviderErrorTable = {
  auth: {
    patterns: [/\b40[13]\b|authenticat|invalid (x-)?api[- ]key|re-authenticate|no api key|missing api key/i],
  },
  rateLimit: { patterns: [/\b429\b|rate[- ]limit/i] },
  context: { patterns: [/context overflow/i] },
  authGuidance:
    'Check the provider credentials OpenClaw uses (openclaw models auth, ~/.openclaw/.env or the provider key env var).',
};

/** Classifies a failure message; `kind: 'timeout'` (the agent's deadline passed) is a `timeout` error. */
export function errorDrafts(message: string, kind?: string): EventDraft[] {
  if (kind === 'timeout') return [{ type: 'error', code: 'timeout', message, recoverable: false }];
  return [providerErrorDraft(message, OPENCLAW_PROVIDER_ERRORS)];
}

import type { EventDraft } from '../../../core/events/index.ts';
import { type ProviderErrorTable, providerErrorDraft } from '../../shared/provider-error.ts';

/** What hermes prints for provider failures (only as text in `result.error`), beyond the common words. */
export const HERMES_PROVIDER_ERRORS: ProviderErrorTable = {
  auth: { patterns: [/\b40[13]\b|authenticat|invalid (x-)?api[- ]key|no api key|credentials?/i] },
  rateLimit: { patterns: [/\b429\b|rate[- ]limit/i] },
  authGuidance: 'Configure a provider key (~/.hermes/.env) or run `hermes auth`.',
};

/** Hermes reports provider failures only as text in `result.error`: the typed draft for one. */
export function hermesErrorDrafts(message: string): EventDraft[] {
  return [providerErrorDraft(message, HERMES_PROVIDER_ERRORS)];
}

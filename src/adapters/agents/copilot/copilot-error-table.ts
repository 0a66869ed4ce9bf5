import type { EventDraft } from '../../../core/events/index.ts';
import { type ProviderErrorTable, providerErrorDraft } from '../../shared/provider-error.ts';
import { num, type Obj, str } from '../../shared/record-fields.ts';

/** What Copilot says of a failing login or model API, beyond the common wording (provider-error.ts). */
export const copilotErrorTable: ProviderErrorTable = {
  // 413 stands for Copilot's `errorType: "context_limit"` (see below).
  context: { statuses: [413], patterns: [/context limit/i] },
  authGuidance:
    'Set COPILOT_GITHUB_TOKEN (or GH_TOKEN / GITHUB_TOKEN), run `copilot login`, or for a custom provider check COPILOT_PROVIDER_API_KEY.',
};

/** Copilot's `errorType`, as the HTTP status that means the same to the classifier. */
const ERROR_TYPE_STATUS: Readonly<Record<string, number>> = {
  authentication: 401,
  authorization: 403,
  rate_limit: 429,
  quota: 429,
  context_limit: 413,
};

/**
 * A `session.error` {errorType, statusCode, message, retryAfterMs?, retryAfter?} as its typed error
 * draft, with the message as the normalized text says it (see {@link withoutRetryTime}).
 */
export function sessionErrorDraft(data: Obj, message: string): EventDraft {
  const status = ERROR_TYPE_STATUS[(str(data.errorType) ?? '').toLowerCase()] ?? num(data.statusCode);
  return providerErrorDraft(message, copilotErrorTable, { status, retryAfterMs: retryAfter(data) });
}

/** The retry delay Copilot gives in its own fields (the message's words are read by the classifier). */
function retryAfter(data: Obj): number | undefined {
  const ms = num(data.retryAfterMs);
  if (ms !== undefined && ms >= 0) return ms;
  const seconds = num(data.retryAfter);
  return seconds !== undefined && seconds >= 0 ? seconds * 1000 : undefined;
}

/**
 * Copilot's give-up message counts the time it spent retrying ("retried 5 times (total retry wait
 * time: 5.62 seconds)"), which differs on every run and tells nothing to act on: it is dropped from
 * the normalized message (debug mode keeps the raw record).
 */
export function withoutRetryTime(message: string): string {
  return message.replace(/\s*\(total retry wait time: [\d.]+ seconds?\)\s*/i, '. ');
}

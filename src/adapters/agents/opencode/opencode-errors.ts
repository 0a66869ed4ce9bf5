import type { EventDraft } from '../../../core/events/index.ts';
import { type ProviderErrorTable, providerErrorDraft } from '../../shared/provider-error.ts';
import { isObj, num, type Obj, str } from '../../shared/record-fields.ts';

/** What OpenCode (and Kilo) say of provider failures, beyond the common words. */
export const OPENCODE_PROVIDER_ERRORS: ProviderErrorTable = {
  auth: { patterns: [/api key/i] },
  authGuidance:
    "Set the provider's API key (e.g. ANTHROPIC_API_KEY) or log in with `opencode auth login` (`kilo auth login`).",
};

/** An OpenCode error (`{name, data: {message, statusCode, responseHeaders}}`) as read. */
export interface OpenCodeErrorInfo {
  message: string;
  name?: string;
  status?: number;
  headers: Obj;
}

/** Reads OpenCode's error object, or Kilo's plain string. */
export function openCodeErrorInfo(error: unknown): OpenCodeErrorInfo {
  if (typeof error === 'string') return { message: error, headers: {} };
  if (!isObj(error)) return { message: 'unknown error', headers: {} };
  const data = isObj(error.data) ? error.data : {};
  const name = str(error.name);
  const message = str(data.message) ?? str(error.message) ?? name ?? 'unknown error';
  return {
    message,
    name,
    status: num(data.statusCode),
    headers: isObj(data.responseHeaders) ? data.responseHeaders : {},
  };
}

/**
 * The typed draft of an OpenCode error: `ProviderAuthError` is an auth error and
 * `ContextOverflowError` a context overflow whatever their words; else the provider-error table
 * decides, with the wait from the `retry-after-ms` / `retry-after` headers.
 */
export function openCodeErrorDraft(info: OpenCodeErrorInfo, table: ProviderErrorTable): EventDraft {
  const { message, name, status } = info;
  if (name === 'ProviderAuthError')
    return table.authGuidance === undefined
      ? { type: 'auth_error', message }
      : { type: 'auth_error', message, guidance: table.authGuidance };
  const context: EventDraft | undefined =
    name === 'ContextOverflowError' ? { type: 'context_exceeded', message } : undefined;
  return providerErrorDraft(message, table, {
    status,
    retryAfterMs: headerRetryAfterMs(info.headers),
    fallback: context,
  });
}

/** `retry-after-ms` (milliseconds) or `retry-after` (seconds) of the provider's response. */
export function headerRetryAfterMs(headers: Obj): number | undefined {
  const ms = str(headers['retry-after-ms']);
  if (ms !== undefined && Number.isFinite(Number(ms)) && Number(ms) >= 0) return Math.round(Number(ms));
  const seconds = str(headers['retry-after']);
  if (seconds === undefined) return undefined;
  const value = Number(seconds);
  return Number.isFinite(value) && value >= 0 ? Math.round(value * 1000) : undefined;
}

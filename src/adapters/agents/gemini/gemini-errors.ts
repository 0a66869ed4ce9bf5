import type { EventDraft } from '../../../core/events/index.ts';

/**
 * Error text as Gemini CLI and its fork Qwen Code print it (`[API Error: 401 …]`,
 * `{"error":{"code":429,…,"status":"RESOURCE_EXHAUSTED"}}`, `Resource has been exhausted`), turned
 * into the typed error drafts. Shared by the `gemini` and `qwen` translators.
 */
export function classifyApiError(message: string): EventDraft {
  const status = httpStatusOf(message);
  if (
    status === 401 ||
    status === 403 ||
    /UNAUTHENTICATED|PERMISSION_DENIED|API key not valid|Incorrect API key|invalid[_ ]api[_ ]key/i.test(message)
  ) {
    return {
      type: 'auth_error',
      message,
      guidance: 'Check the API key (GEMINI_API_KEY / OPENAI_API_KEY) or log in again with the CLI.',
    };
  }
  if (status === 429 || /RESOURCE_EXHAUSTED|rate limit|Resource has been exhausted|quota/i.test(message)) {
    const retryAfterMs = retryAfterMsOf(message);
    return retryAfterMs === undefined
      ? { type: 'rate_limit_error', message }
      : { type: 'rate_limit_error', message, retryAfterMs };
  }
  if (
    /context (window|length)|too many tokens|token count .* exceeds|maximum context|input token count/i.test(message)
  ) {
    return { type: 'context_exceeded', message };
  }
  return { type: 'error', code: 'agent_error', message, recoverable: false };
}

/** The HTTP status an error message names: `"code":401`, `API Error: 429`, `status: 401`, `got status: 403`. */
export function httpStatusOf(message: string): number | undefined {
  const match =
    /"code"\s*:\s*(\d{3})\b/.exec(message) ??
    /API Error:\s*(\d{3})\b/i.exec(message) ??
    /\bstatus(?: code)?:?\s*(\d{3})\b/i.exec(message);
  return match?.[1] ? Number(match[1]) : undefined;
}

/** `retryDelay: "1s"`, `try again in 1s`, `retry after 2.5s`, `Retry-After: 3` → milliseconds. */
export function retryAfterMsOf(message: string): number | undefined {
  const match =
    /"retryDelay"\s*:\s*"(\d+(?:\.\d+)?)s"/.exec(message) ??
    /(?:try again in|retry after|retry-after:?)\s*(\d+(?:\.\d+)?)\s*(ms|s|seconds?)?/i.exec(message);
  if (!match?.[1]) return undefined;
  const value = Number(match[1]);
  if (!Number.isFinite(value) || value < 0) return undefined;
  return match[2] === 'ms' ? Math.round(value) : Math.round(value * 1000);
}

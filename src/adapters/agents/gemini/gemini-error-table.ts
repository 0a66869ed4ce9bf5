import type { EventDraft } from '../../../core/events/index.ts';
import { type ProviderErrorTable, providerErrorDraft } from '../../shared/provider-error.ts';

/**
 * What Gemini CLI and its fork Qwen Code print for a failing model API (`[API Error: 401 …]`,
 * `{"error":{"code":429,…,"status":"RESOURCE_EXHAUSTED"}}`, `Resource has been exhausted`), beyond
 * the common wording of provider-error.ts. Shared by the `gemini` and `qwen` translators.
 */
export const geminiErrorTable: ProviderErrorTable = {
  auth: { patterns: [/UNAUTHENTICATED|PERMISSION_DENIED|API key not valid/] },
  rateLimit: { patterns: [/Resource has been exhausted/i] },
  context: { patterns: [/token count .* exceeds|input token count/i] },
  authGuidance: 'Check the API key (GEMINI_API_KEY / OPENAI_API_KEY) or log in again with the CLI.',
};

/** An error text of Gemini CLI or Qwen Code as its typed error draft. */
export const classifyApiError = (message: string): EventDraft => providerErrorDraft(message, geminiErrorTable);

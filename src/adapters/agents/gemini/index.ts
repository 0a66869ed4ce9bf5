import { defineBuiltinAdapters } from '../../shared/builtin-adapters.ts';
import { geminiAcpAdapter } from './gemini-acp.ts';
import { geminiAdapter } from './gemini-adapter.ts';

export { type GeminiAcpAdapterOptions, geminiAcpAdapter } from './gemini-acp.ts';
export { geminiAdapter } from './gemini-adapter.ts';
export { detectGeminiAuth, GEMINI_SECRET_ENV } from './gemini-auth.ts';
export { classifyApiError, geminiErrorTable } from './gemini-error-table.ts';
export { geminiPlan, geminiThinkingConfig } from './gemini-plan.ts';
export { geminiPolicyToml, toolLists } from './gemini-policy.ts';
export { type GeminiTranslatorState, geminiMcpName, geminiTranslator } from './gemini-translator.ts';

/** What this folder adds to the built-in registry (read by `npm run generate`). */
export const builtin = defineBuiltinAdapters({
  adapters: [geminiAdapter, geminiAcpAdapter],
  catalog: { permissions: 'approval mode + policy file', mcp: 'yes' },
});

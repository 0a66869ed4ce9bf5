export { geminiAdapter } from './gemini-adapter.ts';
export { detectGeminiAuth, GEMINI_SECRET_ENV } from './gemini-auth.ts';
export { classifyApiError, geminiErrorTable } from './gemini-error-table.ts';
export { geminiPlan, geminiThinkingConfig } from './gemini-plan.ts';
export { geminiPolicyToml, toolLists } from './gemini-policy.ts';
export { type GeminiTranslatorState, geminiMcpName, geminiTranslator } from './gemini-translator.ts';

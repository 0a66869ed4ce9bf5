export { qwenAdapter } from './qwen-adapter.ts';
export { detectQwenAuth, QWEN_SECRET_ENV } from './qwen-auth.ts';
export { qwenPlan, qwenReasoningEffort } from './qwen-plan.ts';
export { type QwenTranslatorState, qwenTranslator } from './qwen-translator.ts';

import { defineBuiltinAdapters } from '../../shared/builtin-adapters.ts';
import { qwenAcpAdapter } from './qwen-acp.ts';
import { qwenAdapter } from './qwen-adapter.ts';

export { type QwenAcpAdapterOptions, qwenAcpAdapter } from './qwen-acp.ts';
export { qwenAdapter } from './qwen-adapter.ts';
export { detectQwenAuth, QWEN_SECRET_ENV } from './qwen-auth.ts';
export { qwenPlan, qwenReasoningEffort } from './qwen-plan.ts';
export { type QwenTranslatorState, qwenTranslator } from './qwen-translator.ts';

/** What this folder adds to the built-in registry (read by `npm run generate`). */
export const builtin = defineBuiltinAdapters({
  adapters: [qwenAdapter, qwenAcpAdapter],
  catalog: { permissions: 'allowed / excluded tools', mcp: 'yes' },
});

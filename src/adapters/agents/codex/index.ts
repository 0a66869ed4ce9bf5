export { type CodexAdapterOptions, codexAdapter } from './codex-adapter.ts';
export { detectCodexAuth } from './codex-auth.ts';
export { type CodexSandboxMode, codexPermissions, codexPlan } from './codex-plan.ts';
export { type CodexTranslatorState, codexTranslator } from './codex-translator.ts';

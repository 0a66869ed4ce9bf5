export { claudeAdapter } from './claude-adapter.ts';
export { detectClaudeAuth } from './claude-auth.ts';
export { claudePermissionArgs, claudePlan, claudeThinking } from './claude-plan.ts';
export { type ClaudeTranslatorState, claudeTranslator } from './claude-translator.ts';

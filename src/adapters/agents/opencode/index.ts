export { opencodeAdapter } from './opencode-adapter.ts';
export { detectOpenCodeAuth } from './opencode-auth.ts';
export { type OpenCodeFlavor, openCodePermission, openCodePlan } from './opencode-plan.ts';
export { OPENCODE_MCP_SERVER, OPENCODE_SHELL_TOOL, openCodeTranslator } from './opencode-translator.ts';

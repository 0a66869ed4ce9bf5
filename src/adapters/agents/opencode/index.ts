import { defineBuiltinAdapters } from '../../shared/builtin-adapters.ts';
import { opencodeAcpAdapter } from './opencode-acp.ts';
import { opencodeAdapter } from './opencode-adapter.ts';

export {
  CALLER_TOOLS_PERMISSION,
  type OpenCodeAcpAdapterOptions,
  openCodeAcpPermission,
  openCodeStyleAcpAdapter,
  opencodeAcpAdapter,
} from './opencode-acp.ts';
export { opencodeAdapter } from './opencode-adapter.ts';
export { detectOpenCodeAuth } from './opencode-auth.ts';
export { type OpenCodeFlavor, openCodePermission, openCodePlan } from './opencode-plan.ts';
export { OPENCODE_MCP_SERVER, OPENCODE_SHELL_TOOL, openCodeTranslator } from './opencode-translator.ts';

/** What this folder adds to the built-in registry (read by `npm run generate`). */
export const builtin = defineBuiltinAdapters({
  adapters: [opencodeAdapter, opencodeAcpAdapter],
  catalog: { permissions: '`permission` config', mcp: 'yes' },
});

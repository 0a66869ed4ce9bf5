import { defineBuiltinAdapters } from '../../shared/builtin-adapters.ts';
import { copilotAcpAdapter } from './copilot-acp.ts';
import { copilotAdapter } from './copilot-adapter.ts';

export { type CopilotAcpAdapterOptions, copilotAcpAdapter } from './copilot-acp.ts';
export { copilotAdapter } from './copilot-adapter.ts';
export { copilotTranslator } from './copilot-translator.ts';

/** What this folder adds to the built-in registry (read by `npm run generate`). */
export const builtin = defineBuiltinAdapters({
  adapters: [copilotAdapter, copilotAcpAdapter],
  catalog: { permissions: '`--allow-tool` / `--deny-tool`', mcp: 'yes' },
});

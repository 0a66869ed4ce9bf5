import { defineBuiltinAdapters } from '../../shared/builtin-adapters.ts';
import { hermesAdapter } from './hermes-adapter.ts';

export { hermesAcpTranslator } from './hermes-acp-translator.ts';
export { HERMES_TESTED_VERSION, type HermesAdapterOptions, hermesAdapter } from './hermes-adapter.ts';

/** What this folder adds to the built-in registry (read by `npm run generate`). */
export const builtin = defineBuiltinAdapters({
  adapters: [hermesAdapter],
  catalog: {
    name: 'Hermes Agent (`hermes acp`)',
    source: 'PyPI `hermes-agent` (unreachable here; built from its 0.18.2 source)',
    permissions:
      'ACP `session/request_permission` → approval channel (Hermes asks only for commands it deems dangerous)',
    mcp: 'no',
  },
});

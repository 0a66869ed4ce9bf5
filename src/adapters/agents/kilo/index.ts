import { defineBuiltinAdapters } from '../../shared/builtin-adapters.ts';
import { kiloAcpAdapter } from './kilo-acp.ts';
import { kiloAdapter } from './kilo-adapter.ts';

export { kiloAcpAdapter } from './kilo-acp.ts';
export { detectKiloAuth, kiloAdapter, kiloFlavor } from './kilo-adapter.ts';

/** What this folder adds to the built-in registry (read by `npm run generate`). */
export const builtin = defineBuiltinAdapters({
  adapters: [kiloAdapter, kiloAcpAdapter],
  catalog: { name: 'Kilo Code', permissions: '`permission` config', mcp: 'yes' },
});

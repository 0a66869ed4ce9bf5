import { defineBuiltinAdapters } from '../../shared/builtin-adapters.ts';
import { ompAcpAdapter } from './omp-acp.ts';
import { ompAdapter } from './omp-adapter.ts';

export { type OmpAcpAdapterOptions, ompAcpAdapter } from './omp-acp.ts';
export { ompAdapter } from './omp-adapter.ts';
export { ompTranslator } from './omp-translator.ts';

/** What this folder adds to the built-in registry (read by `npm run generate`). */
export const builtin = defineBuiltinAdapters({
  adapters: [ompAdapter, ompAcpAdapter],
  catalog: { name: 'oh-my-pi', permissions: 'extension → approval channel', mcp: 'yes' },
});

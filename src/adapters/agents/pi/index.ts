import { defineBuiltinAdapters } from '../../shared/builtin-adapters.ts';
import { piAdapter } from './pi-adapter.ts';

export { piAdapter } from './pi-adapter.ts';
export { createPiTranslator, type PiTranslatorState, piTranslator } from './pi-translator.ts';

/** What this folder adds to the built-in registry (read by `npm run generate`). */
export const builtin = defineBuiltinAdapters({
  adapters: [piAdapter],
  catalog: { permissions: 'extension → approval channel', mcp: 'yes' },
});

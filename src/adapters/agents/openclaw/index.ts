import { defineBuiltinAdapters } from '../../shared/builtin-adapters.ts';
import { openclawAdapter } from './openclaw-adapter.ts';

export { openclawAdapter } from './openclaw-adapter.ts';
export { openclawTranslator } from './openclaw-translator.ts';

/** What this folder adds to the built-in registry (read by `npm run generate`). */
export const builtin = defineBuiltinAdapters({
  adapters: [openclawAdapter],
  catalog: { permissions: '`tools.allow` / `tools.deny`', mcp: 'yes' },
});

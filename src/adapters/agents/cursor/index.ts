import { defineBuiltinAdapters } from '../../shared/builtin-adapters.ts';
import { cursorAdapter } from './cursor-adapter.ts';

export { cursorAdapter } from './cursor-adapter.ts';
export { cursorTranslator } from './cursor-translator.ts';

/** What this folder adds to the built-in registry (read by `npm run generate`). */
export const builtin = defineBuiltinAdapters({
  adapters: [cursorAdapter],
  catalog: {
    name: 'Cursor Agent',
    source: 'not on npm',
    checkedAgainst: 'evidence only (docs, published streams)',
    permissions: '`--force` or none',
    mcp: 'no',
  },
});

import { defineBuiltinAdapters } from '../../shared/builtin-adapters.ts';
import { demoAdapter } from './demo-adapter.ts';

export { type DemoAdapterOptions, demoAdapter } from './demo-adapter.ts';

/** What this folder adds to the built-in registry (read by `npm run generate`). */
export const builtin = defineBuiltinAdapters({
  adapters: [demoAdapter],
  catalog: {
    name: 'built in',
    source: '—',
    checkedAgainst: '—',
    permissions: 'tool host relay',
    mcp: '—',
    docs: 'none',
  },
});

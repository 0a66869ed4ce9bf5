import { defineBuiltinAdapters } from '../../shared/builtin-adapters.ts';
import { agentMuxRemoteAdapter } from './agent-mux-remote-adapter.ts';

export { type AgentMuxRemoteOptions, agentMuxRemoteAdapter } from './agent-mux-remote-adapter.ts';
export { type RemoteInvocation, wrapInvocation } from './remote-invocation.ts';
export { remoteTranslator } from './remote-translator.ts';

/** What this folder adds to the built-in registry (read by `npm run generate`). */
export const builtin = defineBuiltinAdapters({
  adapters: [agentMuxRemoteAdapter],
  catalog: {
    name: 'another `agent-mux run --json`',
    source: '—',
    checkedAgainst: 'local invocation tested',
    permissions: 'the remote’s',
    mcp: '—',
    docs: { text: 'below' },
  },
});

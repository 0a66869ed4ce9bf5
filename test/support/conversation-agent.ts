import { join } from 'node:path';
import type { SessionFileDeclaration } from '../../src/core/adapter/session-files.ts';
import { listFiles } from '../../src/core/files/confined-files.ts';

/** The ACP fixture agent that keeps its sessions on disk like a real CLI (test/fixtures/bin/conversation-agent.mjs). */
export const CONVERSATION_AGENT = new URL('../fixtures/bin/conversation-agent.mjs', import.meta.url).pathname;

/** Its `.github/agent-mux.yml` entry as agent `conv` (indented under `agents:`). */
export const CONVERSATION_AGENT_CONFIG = `  conv:
    adapter: acp
    options:
      binary: ${process.execPath}
      args: [${CONVERSATION_AGENT}]
`;

/** Its session files: `~/.conversation-agent/sessions/<id>.json`. */
export const conversationAgentSessions: SessionFileDeclaration = {
  root: (location) => join(location.home, '.conversation-agent'),
  async find(location, sessionId) {
    return (await listFiles(this.root(location), join(this.root(location), 'sessions'))).filter(
      (f) => f === `sessions/${sessionId}.json`,
    );
  },
};

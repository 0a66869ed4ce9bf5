import { cursorAdapter } from '../../../src/adapters/agents/cursor/index.ts';
import type { LiveSpec } from '../live-spec.ts';

const notOnNpm =
  "Cursor's CLI installs with `curl https://cursor.com/install` (the npm package `cursor-agent` is an unrelated " +
  'project), and it talks only to Cursor’s own backend (no base-URL setting for a local model): evidence-only, ' +
  'see test/fixtures/streams/cursor/README.md';

/** Evidence-only: every case is skipped; the recorder has nothing to install. */
export const spec: LiveSpec = {
  adapter: 'cursor',
  create: () => cursorAdapter(),
  // Not a package name on purpose: were the recorder to try installing it, npm rejects the name
  // locally (EINVALIDPACKAGENAME) instead of asking the registry about a made-up or unrelated package.
  npmPackage: '(not on npm)',
  version: '0.0.0',
  binName: 'cursor-agent',
  provider: 'openai-chat',
  cases: {
    plain: { skip: notOnNpm },
    tool: { skip: notOnNpm },
    denied: { skip: notOnNpm },
    resume: { skip: notOnNpm },
    'auth-401': { skip: notOnNpm },
    'rate-429': { skip: notOnNpm },
  },
  async setup() {
    return { env: {} };
  },
};

import { opencodeAcpAdapter } from '../../../src/adapters/agents/opencode/opencode-acp.ts';
import { acpWriteCases } from '../acp-write-cases.ts';
import type { LiveSpec } from '../live-spec.ts';
import { spec as opencode } from './opencode.live.ts';

/**
 * Opencode in ACP mode (`opencode acp`), with the headless spec's config (a `fake` provider). Every tool is
 * `ask` in the inline config, so the shell call reaches the client as `session/request_permission`;
 * the `denied` case denies it there (ACP kind `execute`). Recordings: test/fixtures/streams/acp-opencode/.
 */
export const spec: LiveSpec = {
  ...opencode,
  adapter: 'acp-opencode',
  create: () => opencodeAcpAdapter(),
  cases: acpWriteCases(opencode.cases),
};

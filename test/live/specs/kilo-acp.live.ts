import { kiloAcpAdapter } from '../../../src/adapters/agents/kilo/kilo-acp.ts';
import { acpWriteCases } from '../acp-write-cases.ts';
import type { LiveSpec } from '../live-spec.ts';
import { spec as kilo } from './kilo.live.ts';

/**
 * Kilo Code CLI in ACP mode (`kilo acp`), with the headless spec's config (a `fake` provider). Every tool is
 * `ask` in the inline config, so the shell call reaches the client as `session/request_permission`;
 * the `denied` case denies it there (ACP kind `execute`). Recordings: test/fixtures/streams/acp-kilo/.
 */
export const spec: LiveSpec = {
  ...kilo,
  adapter: 'acp-kilo',
  create: () => kiloAcpAdapter(),
  cases: acpWriteCases(kilo.cases),
};

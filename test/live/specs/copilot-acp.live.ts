import { copilotAcpAdapter } from '../../../src/adapters/agents/copilot/copilot-acp.ts';
import { acpWriteCases } from '../acp-write-cases.ts';
import type { LiveSpec } from '../live-spec.ts';
import { spec as copilot } from './copilot.live.ts';

/**
 * GitHub Copilot CLI 1.0.102 in ACP mode (`copilot --acp`), against the fake model server with the
 * headless spec's environment (a custom OpenAI provider). The shell command is asked over
 * `session/request_permission` (ACP kind `execute`); `denied` refuses it there. Recordings:
 * test/fixtures/streams/acp-copilot/.
 */
export const spec: LiveSpec = {
  ...copilot,
  adapter: 'acp-copilot',
  create: () => copilotAcpAdapter(),
  variesBetweenRuns:
    'its 429 message names the total time it waited between retries, which has jitter (5.42 s, then 5.38 s for the same case)',
  cases: acpWriteCases(copilot.cases),
};

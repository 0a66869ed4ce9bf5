import { qwenAcpAdapter } from '../../../src/adapters/agents/qwen/qwen-acp.ts';
import { acpWriteCases } from '../acp-write-cases.ts';
import type { LiveSpec } from '../live-spec.ts';
import { spec as qwen } from './qwen.live.ts';

/**
 * Qwen Code 0.24.4 in ACP mode (`qwen --acp --approval-mode default`), against the fake model
 * server with the same environment as the headless spec. Recordings: test/fixtures/streams/acp-qwen/.
 */
export const spec: LiveSpec = {
  ...qwen,
  adapter: 'acp-qwen',
  create: () => qwenAcpAdapter(),
  cases: acpWriteCases(qwen.cases),
};

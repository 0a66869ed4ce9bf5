import { ompAcpAdapter } from '../../../src/adapters/agents/omp/omp-acp.ts';
import { acpWriteCases } from '../acp-write-cases.ts';
import type { LiveSpec } from '../live-spec.ts';
import { spec as omp } from './omp.live.ts';

/**
 * omp 18.2.3 in ACP mode (`omp --mode acp`), with the headless spec's config and Bun. The `denied`
 * case denies the shell call in the client (omp's ACP kind `execute`). Recordings:
 * test/fixtures/streams/acp-omp/.
 */
export const spec: LiveSpec = {
  ...omp,
  adapter: 'acp-omp',
  create: () => ompAcpAdapter(),
  cases: acpWriteCases(omp.cases),
};

import type { Adapter } from '../../../core/adapter/index.ts';
import { cliAcpAdapter } from '../../protocols/acp/cli-acp-adapter.ts';
import type { CliAdapterOptions } from '../../shared/define-cli-adapter.ts';
import { ompAdapter } from './omp-adapter.ts';

/** The options of {@link ompAcpAdapter}: `command`, the executable (default `omp`). */
export type OmpAcpAdapterOptions = CliAdapterOptions;

/**
 * omp (oh-my-pi) over ACP (`omp --mode acp`): with an ACP client connected and no explicit `yolo`,
 * it gates its permission-required tools (bash, writes, …) through `session/request_permission`.
 * Runs on Bun. Configuration is omp's own (`~/.omp/agent/models.yml`, `config.yml`).
 */
export function ompAcpAdapter(options: OmpAcpAdapterOptions = {}): Adapter {
  return cliAcpAdapter(ompAdapter(options), { id: 'omp-acp', displayName: 'omp (ACP)', args: ['--mode', 'acp'] });
}

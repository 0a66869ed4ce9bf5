import type { Adapter } from '../../../../core/adapter/index.ts';
import { OMP_KEY_ENV, ompAdapter } from '../../../agents/omp/omp-adapter.ts';
import { acpAdapter } from '../acp-adapter.ts';

export interface OmpAcpAdapterOptions {
  /** The executable (default `omp`). */
  command?: string;
}

/**
 * omp (oh-my-pi) over ACP (`omp --mode acp`): with an ACP client connected and no explicit `yolo`,
 * it gates its permission-required tools (bash, writes, …) through `session/request_permission`.
 * Runs on Bun. Configuration is omp's own (`~/.omp/agent/models.yml`, `config.yml`).
 */
export function ompAcpAdapter(options: OmpAcpAdapterOptions = {}): Adapter {
  const command = options.command ?? 'omp';
  const headless = ompAdapter({ command });
  return acpAdapter(
    'omp-acp',
    { binary: command, args: ['--mode', 'acp'], secretEnv: [...OMP_KEY_ENV] },
    {
      displayName: 'omp (ACP)',
      expandTemplates: false,
      ...(headless.sessionDir ? { sessionDir: headless.sessionDir } : {}),
      ...(headless.detectAuth ? { detectAuth: headless.detectAuth } : {}),
      ...(headless.program ? { program: headless.program } : {}),
    },
  );
}

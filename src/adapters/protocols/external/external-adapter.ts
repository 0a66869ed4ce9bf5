import type { Adapter, Capabilities } from '../../../core/adapter/index.ts';
import type { ExternalAdapterConfig } from '../../../core/config/index.ts';
import { configuredAdapterBase } from '../../shared/configured-adapter-base.ts';
import { configuredCapabilities } from '../../shared/configured-capabilities.ts';
import { ExternalHost } from './external-host.ts';
import { openExternalSession } from './external-session.ts';

export interface ExternalOptions {
  /** SIGTERM → SIGKILL window when the adapter process is killed (`dispose()`). Default 2000 ms. */
  graceMs?: number;
}

/** An external adapter; `dispose()` closes every open session and kills the adapter process. */
export type ExternalAdapter = Adapter & {
  dispose(): Promise<void>;
  /** The adapter process's pid while it runs. */
  readonly pid: number | undefined;
};

/**
 * Its capabilities: no native session ids, turn completion (`turn.complete`), no resume; interactive.
 * Permission requests are the agent's own prompts (`native`), answered through the run's approval channel.
 */
export const externalCapabilities: Capabilities = configuredCapabilities({
  approvals: 'native',
  sessionPersistence: 'memory',
  execModel: 'interactive',
});

/**
 * The `external` profile: one long-lived adapter process speaking JSON lines on stdio, serving every
 * run of this adapter as a session of its own (`session_id`). The process starts with the first run, in
 * its own process group (killed on `dispose()` and when this process exits), and again after it died.
 * Arguments may use `${NAME}` and `{{workspacePath}}` (the process's directory, `work_dir` or the first
 * run's `cwd`); the environment is the first run's plus `env`. A run's own `env` does not reach it.
 */
export function externalAdapter(
  id: string,
  config: ExternalAdapterConfig,
  options: ExternalOptions = {},
): ExternalAdapter {
  const host = new ExternalHost({
    adapterId: id,
    command: config.command,
    args: config.args,
    workDir: config.work_dir,
    env: config.env,
    graceMs: options.graceMs ?? 2000,
  });
  return {
    ...configuredAdapterBase({
      id,
      displayName: `${id} (external: ${config.command})`,
      capabilities: externalCapabilities,
      config,
    }),
    launch: { kind: 'session', open: (ctx) => openExternalSession(host, ctx) },
    dispose: () => host.dispose(),
    get pid() {
      return host.pid;
    },
  };
}

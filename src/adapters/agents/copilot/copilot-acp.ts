import type { Adapter } from '../../../core/adapter/index.ts';
import { cliAcpAdapter } from '../../protocols/acp/cli-acp-adapter.ts';
import type { CliAdapterOptions } from '../../shared/define-cli-adapter.ts';
import { copilotAdapter } from './copilot-adapter.ts';

/** The options of {@link copilotAcpAdapter}: `command`, the executable (default `copilot`). */
export type CopilotAcpAdapterOptions = CliAdapterOptions;

/**
 * GitHub Copilot CLI over ACP (`copilot --acp`, 1.0.102): the shell commands and writes it asks about
 * arrive as `session/request_permission` and go to the run's approval channel (headless, Copilot can
 * only be given `--allow-tool` / `--deny-tool` before the run). Configuration is Copilot's own
 * (`COPILOT_PROVIDER_*` for a custom provider, or its GitHub login).
 */
export function copilotAcpAdapter(options: CopilotAcpAdapterOptions = {}): Adapter {
  const mode = { id: 'copilot-acp', displayName: 'GitHub Copilot CLI (ACP)', needsTestedVersion: true };
  return cliAcpAdapter(copilotAdapter(options), { ...mode, args: ['--acp'] });
}

import type { Adapter } from '../../../core/adapter/index.ts';
import { cliAcpAdapter } from '../../protocols/acp/cli-acp-adapter.ts';
import type { CliAdapterOptions } from '../../shared/define-cli-adapter.ts';
import { qwenAdapter } from './qwen-adapter.ts';

/** The options of {@link qwenAcpAdapter}: `command`, the executable (default `qwen`). */
export type QwenAcpAdapterOptions = CliAdapterOptions;

/**
 * Qwen Code over ACP (`qwen --acp --approval-mode default`): tools its policy asks about arrive as
 * `session/request_permission` and go to the run's approval channel. Configuration is Qwen's own
 * (`~/.qwen/settings.json`, `OPENAI_API_KEY` / `OPENAI_BASE_URL` / `OPENAI_MODEL`).
 */
export function qwenAcpAdapter(options: QwenAcpAdapterOptions = {}): Adapter {
  const mode = { id: 'qwen-acp', displayName: 'Qwen Code (ACP)', needsTestedVersion: true };
  return cliAcpAdapter(qwenAdapter(options), { ...mode, args: ['--acp', '--approval-mode', 'default'] });
}

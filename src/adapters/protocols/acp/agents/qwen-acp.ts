import { homedir } from 'node:os';
import { join } from 'node:path';
import type { Adapter } from '../../../../core/adapter/index.ts';
import { QWEN_NPM_PACKAGE, QWEN_TESTED_VERSION } from '../../../agents/qwen/qwen-adapter.ts';
import { detectQwenAuth, QWEN_SECRET_ENV } from '../../../agents/qwen/qwen-auth.ts';
import { builtinAcpAdapter } from './builtin-acp-adapter.ts';

export interface QwenAcpAdapterOptions {
  /** The executable (default `qwen`). */
  command?: string;
}

/**
 * Qwen Code over ACP (`qwen --acp --approval-mode default`): tools its policy asks about arrive as
 * `session/request_permission` and go to the run's approval channel. Configuration is Qwen's own
 * (`~/.qwen/settings.json`, `OPENAI_API_KEY` / `OPENAI_BASE_URL` / `OPENAI_MODEL`).
 */
export function qwenAcpAdapter(options: QwenAcpAdapterOptions = {}): Adapter {
  return builtinAcpAdapter({
    id: 'qwen-acp',
    displayName: 'Qwen Code (ACP)',
    command: options.command ?? 'qwen',
    args: ['--acp', '--approval-mode', 'default'],
    costModel: 'alibaba/qwen3-coder-plus',
    secretEnv: QWEN_SECRET_ENV,
    npmPackage: QWEN_NPM_PACKAGE,
    testedVersion: QWEN_TESTED_VERSION,
    sessionDir: join(homedir(), '.qwen', 'projects'),
    detectAuth: detectQwenAuth,
  });
}

import { homedir } from 'node:os';
import { join } from 'node:path';
import type { Adapter } from '../../../../core/adapter/index.ts';
import { GEMINI_NPM_PACKAGE, GEMINI_TESTED_VERSION } from '../../../agents/gemini/gemini-adapter.ts';
import { detectGeminiAuth, GEMINI_SECRET_ENV } from '../../../agents/gemini/gemini-auth.ts';
import { builtinAcpAdapter } from './builtin-acp-adapter.ts';

export interface GeminiAcpAdapterOptions {
  /** The executable (default `gemini`). */
  command?: string;
}

/**
 * Google's Gemini CLI over ACP (`gemini --acp --approval-mode default`). Unlike headless
 * `gemini -p`, Gemini asks here: a shell command or a file write that its policy marks `ask_user`
 * arrives as `session/request_permission` and goes to the run's approval channel. `default` is
 * pinned so a user's `general.defaultApprovalMode: auto_edit` does not pass edits unasked (an
 * untrusted folder forces `default` anyway). Read-only commands (`echo`, `ls`) run without asking.
 * Configuration (auth, model, base URL) is Gemini's own: `~/.gemini/settings.json`, `GEMINI_API_KEY`.
 */
export function geminiAcpAdapter(options: GeminiAcpAdapterOptions = {}): Adapter {
  return builtinAcpAdapter({
    id: 'gemini-acp',
    displayName: 'Gemini CLI (ACP)',
    command: options.command ?? 'gemini',
    args: ['--acp', '--approval-mode', 'default'],
    costModel: 'google/gemini-2.5-pro',
    secretEnv: GEMINI_SECRET_ENV,
    npmPackage: GEMINI_NPM_PACKAGE,
    testedVersion: GEMINI_TESTED_VERSION,
    sessionDir: join(homedir(), '.gemini', 'tmp'),
    detectAuth: detectGeminiAuth,
  });
}

import type { Adapter } from '../../../core/adapter/index.ts';
import { cliAcpAdapter } from '../../protocols/acp/cli-acp-adapter.ts';
import type { CliAdapterOptions } from '../../shared/define-cli-adapter.ts';
import { geminiAdapter } from './gemini-adapter.ts';

/** The options of {@link geminiAcpAdapter}: `command`, the executable (default `gemini`). */
export type GeminiAcpAdapterOptions = CliAdapterOptions;

/**
 * Google's Gemini CLI over ACP (`gemini --acp --approval-mode default`). Unlike headless
 * `gemini -p`, Gemini asks here: a shell command or a file write that its policy marks `ask_user`
 * arrives as `session/request_permission` and goes to the run's approval channel. `default` is
 * pinned so a user's `general.defaultApprovalMode: auto_edit` does not pass edits unasked (an
 * untrusted folder forces `default` anyway). Read-only commands (`echo`, `ls`) run without asking.
 * Configuration (auth, model, base URL) is Gemini's own: `~/.gemini/settings.json`, `GEMINI_API_KEY`.
 */
export function geminiAcpAdapter(options: GeminiAcpAdapterOptions = {}): Adapter {
  const mode = { id: 'gemini-acp', displayName: 'Gemini CLI (ACP)', needsTestedVersion: true };
  return cliAcpAdapter(geminiAdapter(options), { ...mode, args: ['--acp', '--approval-mode', 'default'] });
}

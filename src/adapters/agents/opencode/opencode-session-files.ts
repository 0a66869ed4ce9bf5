import type { SessionFileDeclaration } from '../../../core/adapter/session-files.ts';
import { exportedSessionFiles } from '../../shared/exported-session-files.ts';
import type { OpenCodeFlavor } from './opencode-plan.ts';

/**
 * An OpenCode-style CLI's sessions (seen with OpenCode 1.18.33 and Kilo 7.7.7): every session of
 * every project is in one SQLite database, `$XDG_DATA_HOME/<program>/<program>.db` (default
 * `~/.local/share/…`), so a session is carried as `<program> export <id>` (the session and its
 * messages as JSON, ~4 KB after a short turn) and put back with `<program> import <file>`, run in
 * the working directory of the next turn; `run --session <id>` and ACP's `session/load` then
 * resume it, also from another directory (the tools run in the new one).
 */
export function openCodeStyleSessionFiles(flavor: Pick<OpenCodeFlavor, 'command' | 'env'>): SessionFileDeclaration {
  return exportedSessionFiles({
    program: flavor.command,
    // `--pure`: without the plugins of the user's and the workspace's config (code the agent could have put there).
    exportArgs: (sessionId) => ['export', sessionId, '--pure'],
    importArgs: (path) => ['import', path, '--pure'],
    isSession: (exported, sessionId) =>
      typeof exported === 'object' &&
      exported !== null &&
      'info' in exported &&
      typeof exported.info === 'object' &&
      exported.info !== null &&
      'id' in exported.info &&
      exported.info.id === sessionId,
    ...(flavor.env ? { env: flavor.env } : {}),
  });
}

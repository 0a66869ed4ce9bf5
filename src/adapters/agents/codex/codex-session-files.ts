import { join } from 'node:path';
import type { SessionFileDeclaration, SessionLocation } from '../../../core/adapter/session-files.ts';
import { findCodexRollouts } from './codex-rollout.ts';

/**
 * Codex (seen with 0.169.0): `$CODEX_HOME` (default `~/.codex`) holds the session's rollout,
 * `sessions/YYYY/MM/DD/rollout-<local time>-<session id>.jsonl`; `codex exec resume <id>` finds
 * it there again (its SQLite state files are an index it rebuilds, not needed to resume).
 */
export const codexSessionFiles: SessionFileDeclaration = {
  root: (location: SessionLocation) => location.env.CODEX_HOME || join(location.home, '.codex'),
  find(location, sessionId) {
    return findCodexRollouts(this.root(location), sessionId);
  },
};

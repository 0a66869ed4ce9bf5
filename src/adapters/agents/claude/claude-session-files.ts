import { join } from 'node:path';
import type { SessionFileDeclaration, SessionLocation } from '../../../core/adapter/session-files.ts';
import { isRegularFileInside, listFiles } from '../../../core/files/confined-files.ts';

/** Claude Code's project directory name for a working directory: every other character than a letter or digit becomes `-`. */
export function claudeProjectSlug(cwd: string): string {
  return cwd.replace(/[^a-zA-Z0-9]/g, '-');
}

/**
 * Claude Code (seen with 2.1.330): `$CLAUDE_CONFIG_DIR` (default `~/.claude`) holds
 * `projects/<cwd slug>/<session id>.jsonl`, the whole transcript; a session's subagent and tool
 * output files, when any, go in `projects/<cwd slug>/<session id>/`.
 */
export const claudeSessionFiles: SessionFileDeclaration = {
  root: (location: SessionLocation) => location.env.CLAUDE_CONFIG_DIR || join(location.home, '.claude'),
  async find(location, sessionId) {
    const root = this.root(location);
    const project = join('projects', claudeProjectSlug(location.cwd));
    const transcript = join(project, `${sessionId}.jsonl`);
    if (!(await isRegularFileInside(root, transcript))) return [];
    return [transcript, ...(await listFiles(root, join(root, project, sessionId)))];
  },
  // Only the project directory names the working directory: Claude Code resumes a transcript
  // found under the current directory's slug.
  relocate(path, from, to) {
    const prefix = `projects/${claudeProjectSlug(from)}/`;
    return path.startsWith(prefix) ? `projects/${claudeProjectSlug(to.cwd)}/${path.slice(prefix.length)}` : path;
  },
};

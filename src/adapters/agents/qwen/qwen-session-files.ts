import { join } from 'node:path';
import type { SessionFileDeclaration, SessionLocation } from '../../../core/adapter/session-files.ts';
import { isRegularFileInside } from '../../../core/files/confined-files.ts';
import { claudeProjectSlug } from '../claude/claude-session-files.ts';

/**
 * Qwen Code (seen with 0.24.4): `~/.qwen/projects/<cwd slug>/chats/<session id>.jsonl`, the whole
 * chat; the slug is Claude Code's (every character other than a letter or digit becomes `-`). The
 * project's `meta.json` and memory files are not needed to resume.
 */
export const qwenSessionFiles: SessionFileDeclaration = {
  root: (location: SessionLocation) => join(location.home, '.qwen'),
  async find(location, sessionId) {
    const chat = join('projects', claudeProjectSlug(location.cwd), 'chats', `${sessionId}.jsonl`);
    return (await isRegularFileInside(this.root(location), chat)) ? [chat] : [];
  },
  // Moved to another directory's project, the chat is not found (0.24.4: "No saved session found";
  // its records name their cwd): the app's follow-up in another directory starts anew with a summary.
  relocate: () => undefined,
};

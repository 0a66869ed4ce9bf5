import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { SessionFileDeclaration, SessionLocation } from '../../../core/adapter/session-files.ts';

/** Pi's session directory name for a working directory: `--<path without its first / and with / \ : as ->--`. */
export function piProjectDir(cwd: string): string {
  return `--${cwd.replace(/^[/\\]/, '').replace(/[/\\:]/g, '-')}--`;
}

/**
 * Pi (seen with 0.73.1): `$PI_CODING_AGENT_DIR` (default `~/.pi/agent`) holds
 * `sessions/<project dir>/<time>_<session id>.jsonl`, the whole session; `--session <id>` finds it
 * under the current directory's project.
 */
export const piSessionFiles: SessionFileDeclaration = {
  root: (location: SessionLocation) => location.env.PI_CODING_AGENT_DIR || join(location.home, '.pi', 'agent'),
  async find(location, sessionId) {
    const project = join('sessions', piProjectDir(location.cwd));
    const names = await readdir(join(this.root(location), project)).catch(() => [] as string[]);
    return names.filter((name) => name.endsWith(`_${sessionId}.jsonl`)).map((name) => join(project, name));
  },
  relocate(path, from, to) {
    const prefix = `sessions/${piProjectDir(from)}/`;
    return path.startsWith(prefix) ? `sessions/${piProjectDir(to.cwd)}/${path.slice(prefix.length)}` : path;
  },
};

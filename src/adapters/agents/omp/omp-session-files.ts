import { existsSync, realpathSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { isAbsolute, join, relative, resolve } from 'node:path';
import type { SessionFileDeclaration, SessionLocation } from '../../../core/adapter/session-files.ts';

/** A path as omp compares them: resolved, symbolic links followed when it exists. */
function canonical(path: string): string {
  try {
    return realpathSync(resolve(path));
  } catch {
    return resolve(path);
  }
}

/**
 * omp's session directory name for a working directory (18.2.3, `session/session-paths.ts`): under
 * HOME `-<path relative to HOME>`, under the temp directory `-tmp-<relative path>`, elsewhere
 * `--<path without its first />--`, with every `/`, `\` and `:` as `-`.
 */
export function ompSessionDirName(cwd: string, home: string, tempDir: string): string {
  const dir = canonical(cwd);
  const within = (root: string) => {
    const path = relative(canonical(root), dir);
    return path === '' || (!path.startsWith('..') && !isAbsolute(path)) ? path.replace(/[/\\:]/g, '-') : undefined;
  };
  const inHome = within(home);
  if (inHome !== undefined) return `-${inHome}`;
  const inTemp = within(tempDir);
  if (inTemp !== undefined) return inTemp ? `-tmp-${inTemp}` : '-tmp';
  return `--${dir.replace(/^[/\\]/, '').replace(/[/\\:]/g, '-')}--`;
}

/**
 * oh-my-pi (`omp`, seen with 18.2.3): `$PI_CODING_AGENT_DIR` (default `~/.omp/agent`, or
 * `$XDG_DATA_HOME/omp` once that exists) holds `sessions/<dir name>/<time>_<session id>.jsonl`, the
 * whole session; `--resume <id>` finds it under the current directory's name (the `agent.db`
 * beside it is not needed). Named profiles (`OMP_PROFILE`) and `PI_CONFIG_DIR` are not followed.
 */
export const ompSessionFiles: SessionFileDeclaration = {
  root(location: SessionLocation) {
    if (location.env.PI_CODING_AGENT_DIR) return location.env.PI_CODING_AGENT_DIR;
    const xdg = location.env.XDG_DATA_HOME ? join(location.env.XDG_DATA_HOME, 'omp') : undefined;
    return xdg && existsSync(xdg) ? xdg : join(location.home, '.omp', 'agent');
  },
  async find(location, sessionId) {
    const root = this.root(location);
    const inDir = async (dirName: string) => {
      const dir = join('sessions', dirName);
      const names = await readdir(join(root, dir)).catch(() => [] as string[]);
      return names.filter((name) => name.endsWith(`_${sessionId}.jsonl`)).map((name) => join(dir, name));
    };
    const tempDir = location.env.TMPDIR || location.env.TMP || location.env.TEMP || '/tmp';
    const named = await inDir(ompSessionDirName(location.cwd, location.home, tempDir));
    if (named.length > 0) return named;
    // omp names the directory after the temporary directory it saw, which the run's environment may
    // not say (a TMPDIR inherited, or one agent-mux separated): the session id alone finds it then.
    const dirs = await readdir(join(root, 'sessions')).catch(() => [] as string[]);
    return (await Promise.all(dirs.map(inDir))).flat();
  },
  // A resumed session works in the directory its header names (omp changes into it) and, when that
  // directory is gone, is refused in print mode: the app's follow-up in another directory starts anew.
  relocate: () => undefined,
};

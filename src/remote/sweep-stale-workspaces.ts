import { lstat, readdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';

/** The prefix of the workspaces a server makes for its sessions. */
export const OWNED_PREFIX = 'agent-mux-remote-';
/** The file in each such workspace naming the server's pid. */
export const OWNER_FILE = '.agent-mux-serve.pid';
const FRESH_MS = 60_000;

/**
 * Removes the session workspaces under `root` whose server is gone (its pid in `OWNER_FILE` is no
 * longer alive, or the file is missing): what a server killed with `kill -9` left behind. Only real
 * directories with the server's prefix are touched; links are not followed. Returns what it removed.
 */
export async function sweepStaleWorkspaces(root: string): Promise<string[]> {
  const names = await readdir(root).catch(() => [] as string[]);
  const removed: string[] = [];
  for (const name of names) {
    if (!name.startsWith(OWNED_PREFIX)) continue;
    const dir = join(root, name);
    const found = await lstat(dir).catch(() => undefined);
    if (!found?.isDirectory()) continue;
    const owner = await readFile(join(dir, OWNER_FILE), 'utf8').catch(() => undefined);
    // A workspace another server is making right now has no owner file for a moment.
    if (owner === undefined && Date.now() - found.mtimeMs < FRESH_MS) continue;
    const pid = Number.parseInt(owner ?? '', 10);
    if (Number.isInteger(pid) && pid > 0 && alive(pid)) continue;
    await rm(dir, { recursive: true, force: true }).catch(() => undefined);
    removed.push(dir);
  }
  return removed;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

import { readdir } from 'node:fs/promises';
import { join, relative } from 'node:path';

/** Regular files under `dir` (recursively), relative to `root`; none when `dir` does not exist. */
export async function listFiles(root: string, dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true }).catch(() => []);
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => relative(root, join(entry.parentPath, entry.name)))
    .sort();
}

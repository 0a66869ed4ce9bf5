import { lstat, readdir } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * The bytes the files under `dir` take on disk (symbolic links not followed); 0 when `dir` does not
 * exist. Allocated blocks, not apparent sizes: a sparse file (`truncate -s 20G`) takes no room and
 * must not stop every installation's runs; a file whose blocks are written counts as it is.
 */
export async function directorySize(dir: string): Promise<number> {
  let entries: string[];
  try {
    entries = await readdir(dir, { recursive: true });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 0;
    throw error;
  }
  let total = 0;
  for (const entry of entries) {
    try {
      const stat = await lstat(join(dir, entry));
      if (stat.isFile()) total += stat.blocks * 512;
    } catch {
      // removed meanwhile (a run finishing)
    }
  }
  return total;
}

import { constants } from 'node:fs';
import { access, stat } from 'node:fs/promises';
import { delimiter, isAbsolute, resolve } from 'node:path';

/**
 * The absolute path of the executable `command` resolves to on `pathValue` (a `PATH` string),
 * or undefined when there is none. A command with a directory part (`./bin/x`, `/usr/bin/x`) is
 * checked as it is, relative to `cwd`. On Windows each `PATHEXT` extension is tried too.
 */
export async function findOnPath(
  command: string,
  pathValue: string | undefined,
  options: { cwd?: string; platform?: NodeJS.Platform; pathExt?: string | undefined } = {},
): Promise<string | undefined> {
  const platform = options.platform ?? process.platform;
  const extensions =
    platform === 'win32' ? ['', ...(options.pathExt ?? '.COM;.EXE;.BAT;.CMD').split(';').filter(Boolean)] : [''];
  const candidates: string[] = [];
  if (isAbsolute(command) || command.includes('/') || (platform === 'win32' && command.includes('\\'))) {
    candidates.push(resolve(options.cwd ?? process.cwd(), command));
  } else {
    for (const dir of (pathValue ?? '').split(platform === 'win32' ? ';' : delimiter)) {
      if (dir) candidates.push(resolve(options.cwd ?? process.cwd(), dir, command));
    }
  }
  for (const candidate of candidates) {
    for (const ext of extensions) {
      if (await isExecutableFile(candidate + ext)) return candidate + ext;
    }
  }
  return undefined;
}

async function isExecutableFile(file: string): Promise<boolean> {
  try {
    if (!(await stat(file)).isFile()) return false;
    await access(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

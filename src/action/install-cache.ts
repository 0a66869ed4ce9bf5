import { existsSync } from 'node:fs';
import { readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import semver from 'semver';

/** The file an install directory holds once it is complete; a directory without it is never used. */
export const INSTALL_MARKER = '.agent-mux-installed.json';

/** What the marker file records. */
export interface InstallMarker {
  npmPackage: string;
  version: string;
  /** What was passed to `npm install` (`pkg@1.2.3`, or a tarball). */
  spec: string;
  /** ISO time the install finished. */
  installedAt: string;
  /** The npm overrides the install was made with (`ProgramInfo.npmOverrides`). */
  overrides?: Record<string, string>;
}

/** `<toolCacheDir>/agent-mux/<npmPackage with / replaced by __>`: the versions of one package live below it. */
export function packageCacheRoot(toolCacheDir: string, npmPackage: string): string {
  return join(toolCacheDir, 'agent-mux', npmPackage.replace(/[/\\]/g, '__'));
}

/** The name of `command` in `node_modules/.bin` (npm's `.cmd` shim on Windows). */
export function binName(command: string, platform: NodeJS.Platform = process.platform): string {
  const name = basename(command);
  return platform === 'win32' ? `${name}.cmd` : name;
}

/** `<dir>/node_modules/.bin`. */
export function binDirOf(installDir: string): string {
  return join(installDir, 'node_modules', '.bin');
}

/** The marker of a complete install directory, or undefined (missing, unreadable, not a marker). */
export async function readInstallMarker(installDir: string): Promise<InstallMarker | undefined> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(await readFile(join(installDir, INSTALL_MARKER), 'utf8'));
  } catch {
    return undefined;
  }
  if (typeof parsed !== 'object' || parsed === null) return undefined;
  const record = parsed as Record<string, unknown>;
  if (typeof record.npmPackage !== 'string' || typeof record.version !== 'string') return undefined;
  return {
    npmPackage: record.npmPackage,
    version: record.version,
    spec: typeof record.spec === 'string' ? record.spec : '',
    installedAt: typeof record.installedAt === 'string' ? record.installedAt : '',
    ...(isStringRecord(record.overrides) ? { overrides: record.overrides } : {}),
  };
}

/** Writes the marker: the last step of an install, after the program has been run once. */
export async function writeInstallMarker(installDir: string, marker: InstallMarker): Promise<void> {
  await writeFile(join(installDir, INSTALL_MARKER), `${JSON.stringify(marker, null, 2)}\n`);
}

/** A complete cached install: its directory, version and executable. */
export interface CachedInstall {
  dir: string;
  version: string;
  bin: string;
}

/** The complete install of exactly `version` under `root`, when it has a marker and the executable. */
export async function cachedInstall(
  root: string,
  version: string,
  command: string,
): Promise<CachedInstall | undefined> {
  const dir = join(root, version);
  const marker = await readInstallMarker(dir);
  const bin = join(binDirOf(dir), binName(command));
  if (!marker || !existsSync(bin)) return undefined;
  return { dir, version: marker.version, bin };
}

/** The highest complete install under `root` whose version satisfies `range` (`*` for any). */
export async function bestCachedInstall(
  root: string,
  range: string,
  command: string,
): Promise<CachedInstall | undefined> {
  let names: string[];
  try {
    names = await readdir(root);
  } catch {
    return undefined;
  }
  const versions = names
    .filter((name) => semver.valid(name) !== null && semver.satisfies(name, range, { includePrerelease: true }))
    .sort(semver.rcompare);
  for (const version of versions) {
    const found = await cachedInstall(root, version, command);
    if (found) return found;
  }
  return undefined;
}

/**
 * Removes what interrupted installs left under `root`: `*.partial-<pid>` directories whose process
 * is gone (or is this one), and version directories without a marker. Returns what it removed.
 */
export async function removeLeftovers(root: string): Promise<string[]> {
  let names: string[];
  try {
    names = await readdir(root);
  } catch {
    return [];
  }
  const removed: string[] = [];
  for (const name of names) {
    const partial = name.match(/\.partial-(\d+)$/);
    const stale = partial
      ? !isAlive(Number(partial[1]))
      : semver.valid(name) !== null && !(await readInstallMarker(join(root, name)));
    if (!stale) continue;
    await rm(join(root, name), { recursive: true, force: true });
    removed.push(name);
  }
  return removed;
}

function isAlive(pid: number): boolean {
  if (pid === process.pid) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function isStringRecord(value: unknown): value is Record<string, string> {
  return (
    typeof value === 'object' &&
    value !== null &&
    !Array.isArray(value) &&
    Object.values(value).every((v) => typeof v === 'string')
  );
}

import { readdir } from 'node:fs/promises';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { type ConfigEntry, listConfigFile, runGitConfig } from './config-file.ts';

/** How deep `include.path` chains are followed (git itself stops at 10). */
const maxIncludeDepth = 10;

/**
 * Removes every `http.*extraheader` setting (the `AUTHORIZATION: basic …` header that
 * actions/checkout persists with `persist-credentials: true`) from the repository's configuration
 * files, from the submodules' (`<gitDir>/modules/**\/config`), and from the files they include
 * (`include.path`, `includeIf.*.path`: actions/checkout v6 keeps the header in a file under
 * `$RUNNER_TEMP` that `.git/config` includes). It runs before the agent, and before
 * `sanitizeGitConfig` drops the include lines (which would leave the included file, with the
 * token, behind). agent-mux's git never needs these headers: it authenticates through its own
 * environment (`authEnv`). Returns the files it changed.
 */
export async function removePersistedCredentials(
  gitDir: string,
  /** Listings of files already read (by file), used and kept current: a file this changes is read again next time. */
  listings: Map<string, ConfigEntry[]> = new Map(),
): Promise<string[]> {
  const changed: string[] = [];
  const seen = new Set<string>();
  const visit = async (file: string, depth: number): Promise<void> => {
    if (seen.has(file) || depth > maxIncludeDepth) return;
    seen.add(file);
    const entries = await listConfig(file, listings);
    if (entries === undefined) return;
    const headers = new Set<string>();
    for (const [key, value] of entries) {
      if (/^http\..*extraheader$/is.test(key)) headers.add(key);
      else if (/^include(?:if\..*)?\.path$/is.test(key) && value !== undefined) {
        const included = includedFile(file, value);
        if (included !== undefined) await visit(included, depth + 1);
      }
    }
    for (const key of headers) await runGitConfig(['--file', file, '--unset-all', key]);
    if (headers.size > 0) {
      changed.push(file);
      listings.delete(file);
    }
  };
  await visit(join(gitDir, 'config'), 0);
  for (const file of await submoduleConfigs(gitDir)) await visit(file, 0);
  return changed;
}

/** `git config --list` of one file (includes not followed), or undefined when it cannot be read. */
async function listConfig(file: string, listings: Map<string, ConfigEntry[]>): Promise<ConfigEntry[] | undefined> {
  const known = listings.get(file);
  if (known !== undefined) return known;
  const listing = await listConfigFile(file);
  if (!listing.ok) return undefined;
  listings.set(file, listing.entries);
  return listing.entries;
}

/** The file an include names, resolved as git does (relative to the including file); `~` paths are left alone. */
function includedFile(from: string, path: string): string | undefined {
  if (path === '' || path.startsWith('~')) return undefined;
  return isAbsolute(path) ? path : resolve(dirname(from), path);
}

async function submoduleConfigs(gitDir: string): Promise<string[]> {
  const modules = join(gitDir, 'modules');
  const names = await readdir(modules, { recursive: true }).catch(() => [] as string[]);
  return names.filter((name) => name === 'config' || name.endsWith('/config')).map((name) => join(modules, name));
}

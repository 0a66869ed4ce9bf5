import { readdir } from 'node:fs/promises';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { execa } from 'execa';
import { hardenedEnv } from './hardened-git.ts';

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
export async function removePersistedCredentials(gitDir: string): Promise<string[]> {
  const changed: string[] = [];
  const seen = new Set<string>();
  const visit = async (file: string, depth: number): Promise<void> => {
    if (seen.has(file) || depth > maxIncludeDepth) return;
    seen.add(file);
    const entries = await listConfig(file);
    if (entries === undefined) return;
    const headers = new Set<string>();
    for (const [key, value] of entries) {
      if (/^http\..*extraheader$/is.test(key)) headers.add(key);
      else if (/^include(?:if\..*)?\.path$/is.test(key) && value !== undefined) {
        const included = includedFile(file, value);
        if (included !== undefined) await visit(included, depth + 1);
      }
    }
    for (const key of headers) await runConfig(['--file', file, '--unset-all', key]);
    if (headers.size > 0) changed.push(file);
  };
  await visit(join(gitDir, 'config'), 0);
  for (const file of await submoduleConfigs(gitDir)) await visit(file, 0);
  return changed;
}

/** `git config --list` of one file (includes not followed), or undefined when it cannot be read. */
async function listConfig(file: string): Promise<[string, string | undefined][] | undefined> {
  const result = await runConfig(['--file', file, '--no-includes', '--list', '-z']);
  if (result.exitCode !== 0) return undefined;
  return result.stdout
    .split('\0')
    .filter((record) => record !== '')
    .map((record): [string, string | undefined] => {
      const newline = record.indexOf('\n');
      return newline === -1 ? [record, undefined] : [record.slice(0, newline), record.slice(newline + 1)];
    });
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

async function runConfig(args: string[]): Promise<{ exitCode: number | undefined; stdout: string }> {
  const result = await execa('git', ['config', ...args], {
    cwd: '/',
    env: { ...hardenedEnv(), GIT_CONFIG_COUNT: '0', GIT_CEILING_DIRECTORIES: '/' },
    reject: false,
    stdin: 'ignore',
  });
  return { exitCode: result.exitCode, stdout: String(result.stdout) };
}

import { execa } from 'execa';
import { hardenedEnv } from './hardened-git.ts';

/** One `key` → `value` line of a git configuration file (`value` undefined for a bare `key`). */
export type ConfigEntry = [key: string, value: string | undefined];

/** What `git config --file <file> --no-includes --list -z` said: its entries, or why it could not read the file. */
export type ConfigListing =
  | { ok: true; entries: ConfigEntry[] }
  | { ok: false; exitCode: number | undefined; error: string };

/**
 * Lists one git configuration file as git itself parses it, outside any repository (cwd `/`, no
 * ceiling to climb, no configuration from the environment) and without following includes, so
 * nothing the file names runs or is read.
 */
export async function listConfigFile(file: string): Promise<ConfigListing> {
  const result = await runGitConfig(['--file', file, '--no-includes', '--list', '-z']);
  if (result.exitCode !== 0) return { ok: false, exitCode: result.exitCode, error: result.stderr.trim() };
  const entries = result.stdout
    .split('\0')
    .filter((record) => record !== '')
    .map((record): ConfigEntry => {
      const newline = record.indexOf('\n');
      return newline === -1 ? [record, undefined] : [record.slice(0, newline), record.slice(newline + 1)];
    });
  return { ok: true, entries };
}

/**
 * The value git's `config --get <key>` would give from `entries`: the last one. Section and
 * variable names compare case-insensitively, the subsection exactly (as `--list` prints them).
 */
export function lastConfigValue(entries: readonly ConfigEntry[], key: string): string | undefined {
  const wanted = foldKey(key);
  let found: string | undefined;
  for (const [name, value] of entries) if (foldKey(name) === wanted && value !== undefined) found = value;
  return found;
}

function foldKey(key: string): string {
  const first = key.indexOf('.');
  const last = key.lastIndexOf('.');
  if (first === -1) return key.toLowerCase();
  return `${key.slice(0, first).toLowerCase()}${key.slice(first, last)}${key.slice(last).toLowerCase()}`;
}

/** `git config <args>` on files only, in the hardened environment. */
export async function runGitConfig(
  args: string[],
): Promise<{ exitCode: number | undefined; stdout: string; stderr: string }> {
  const result = await execa('git', ['config', ...args], {
    cwd: '/',
    env: { ...hardenedEnv(), GIT_CONFIG_COUNT: '0', GIT_CEILING_DIRECTORIES: '/' },
    reject: false,
    stdin: 'ignore',
  });
  return { exitCode: result.exitCode, stdout: String(result.stdout), stderr: String(result.stderr) };
}

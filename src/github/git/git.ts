import { execa } from 'execa';
import { GitError } from './git-error.ts';
import { hardenedConfigArgs, hardenedEnv } from './hardened-git.ts';

/** Options of `runGit` and `spawnGit`. */
export interface RunGitOptions {
  /** The working directory (a checkout, or any directory for commands that need none). */
  cwd: string;
  /**
   * A GitHub token (installation or `GITHUB_TOKEN`). When given, HTTPS requests carry
   * `AUTHORIZATION: basic base64("x-access-token:" + token)` as `http.extraheader`, passed in the
   * environment (`GIT_CONFIG_COUNT`/`GIT_CONFIG_KEY_n`/`GIT_CONFIG_VALUE_n`): never on the command
   * line (which any local user can read in `/proc/<pid>/cmdline`), never in `.git/config`.
   * Default: no authentication.
   */
  token?: string;
  /**
   * The GitHub server the token is for. Besides the general `http.extraheader`, the token replaces
   * the header scoped to this server's URL (`http.https://github.com/.extraheader`), which
   * actions/checkout leaves in `.git/config` and which would otherwise win over a general one.
   * Default: `GITHUB_SERVER_URL` from the environment, else `https://github.com`.
   */
  serverUrl?: string;
  /** Extra environment variables, over the inherited ones and the fixed ones below. */
  env?: Record<string, string>;
  /** Text written to git's standard input (for `--pathspec-from-file=-`). Default: stdin is closed. */
  input?: string;
  /**
   * Let git use its `file` protocol (a local path or `file://` remote). Only for a URL agent-mux
   * computed itself (tests' bare repositories, an operator's local mirror). Default: false, and
   * every protocol but HTTPS is refused (see `hardenedConfigArgs`).
   */
  allowFileProtocol?: boolean;
  /** Let git use plain HTTP (see `protocolsFor`: a loopback server agent-mux was configured with). Default: false. */
  allowHttpProtocol?: boolean;
}

/** The outcome of `spawnGit`, whatever the exit code. */
export interface GitResult {
  exitCode: number | undefined;
  /** Standard output, final newline stripped (not redacted: callers only read it). */
  stdout: string;
  /** Standard error with the token redacted. */
  stderr: string;
}

const stderrTailLines = 20;

/**
 * The `http.extraheader` settings that authenticate HTTPS with `token`, for any URL and, more
 * specifically, for `serverUrl`'s (see `RunGitOptions.serverUrl`), as `[key, value]` pairs. Each
 * empty value first resets the headers inherited from the configuration files.
 */
export function authConfig(token: string | undefined, serverUrl = defaultServerUrl()): [string, string][] {
  if (!token) return [];
  const header = `AUTHORIZATION: basic ${basicCredentials(token)}`;
  const keys = ['http.extraheader'];
  const origin = originOf(serverUrl);
  if (origin !== undefined) keys.push(`http.${origin}/.extraheader`);
  return keys.flatMap((key): [string, string][] => [
    [key, ''],
    [key, header],
  ]);
}

/** `authConfig` as the `GIT_CONFIG_COUNT`/`GIT_CONFIG_KEY_n`/`GIT_CONFIG_VALUE_n` environment variables. */
export function authEnv(token: string | undefined, serverUrl?: string): Record<string, string> {
  const pairs = authConfig(token, serverUrl);
  const env: Record<string, string> = { GIT_CONFIG_COUNT: String(pairs.length) };
  pairs.forEach(([key, value], index) => {
    env[`GIT_CONFIG_KEY_${index}`] = key;
    env[`GIT_CONFIG_VALUE_${index}`] = value;
  });
  return env;
}

function defaultServerUrl(): string {
  return process.env.GITHUB_SERVER_URL || 'https://github.com';
}

function originOf(url: string): string | undefined {
  try {
    const { origin } = new URL(url);
    return origin === 'null' ? undefined : origin;
  } catch {
    return undefined;
  }
}

/** Replaces every occurrence of the token and of its base64 credential form with `***`. */
export function redactToken(text: string, token: string | undefined): string {
  if (!token) return text;
  let result = text;
  for (const secret of [basicCredentials(token), Buffer.from(token).toString('base64'), token]) {
    if (secret !== '') result = result.split(secret).join('***');
  }
  return result;
}

/**
 * Runs `git <args>` and resolves with its standard output (final newline stripped). Git runs with
 * the configuration agent-mux controls (`hardenedConfigArgs`, `hardenedEnv`: no system or global
 * file, nothing the repository configures gets executed, HTTPS only). Git never prompts:
 * `GIT_TERMINAL_PROMPT=0`, no askpass, stdin closed; messages are in English (`LC_ALL=C`). Rejects with `GitError` (subcommand, exit code, redacted stderr tail) on failure.
 */
export async function runGit(args: string[], options: RunGitOptions): Promise<string> {
  const result = await spawnGit(args, options);
  if (result.exitCode !== 0) throw new GitError(subcommandOf(args), result.exitCode, tail(result.stderr));
  return result.stdout;
}

/** Like `runGit`, but resolves with the result whatever the exit code (for `push --porcelain`). */
export async function spawnGit(args: string[], options: RunGitOptions): Promise<GitResult> {
  const env: Record<string, string> = {
    ...inheritedEnv(),
    ...options.env,
    ...hardenedEnv(),
    ...authEnv(options.token, options.serverUrl),
  };
  const hardened = hardenedConfigArgs({
    allowFileProtocol: options.allowFileProtocol,
    allowHttpProtocol: options.allowHttpProtocol,
  });
  const result = await execa('git', [...hardened, ...args], {
    cwd: options.cwd,
    env,
    extendEnv: false,
    reject: false,
    ...(options.input === undefined ? { stdin: 'ignore' as const } : { input: options.input }),
    stripFinalNewline: true,
    maxBuffer: 1024 * 1024 * 1024,
  });
  if (result.exitCode === undefined && result.cause !== undefined) {
    // git could not be started (not on PATH, bad cwd); execa's message would repeat the arguments.
    const reason = result.cause instanceof Error ? result.cause.message : String(result.cause);
    throw new GitError(subcommandOf(args), undefined, redactToken(reason, options.token));
  }
  return {
    exitCode: result.exitCode,
    stdout: result.stdout,
    stderr: redactToken(result.stderr, options.token),
  };
}

/** Variables of agent-mux's own environment that would point git at another repository or program. */
const redirectingVariables = new Set([
  'GIT_DIR',
  'GIT_WORK_TREE',
  'GIT_COMMON_DIR',
  'GIT_INDEX_FILE',
  'GIT_OBJECT_DIRECTORY',
  'GIT_ALTERNATE_OBJECT_DIRECTORIES',
  'GIT_NAMESPACE',
  'GIT_CONFIG',
  'GIT_SSH',
  'GIT_SSH_COMMAND',
  'GIT_PROXY_COMMAND',
  'GIT_EDITOR',
  'GIT_SEQUENCE_EDITOR',
]);

function inheritedEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (value === undefined || redirectingVariables.has(key) || /^GIT_CONFIG_(KEY|VALUE)_/.test(key)) continue;
    env[key] = value;
  }
  return env;
}

function basicCredentials(token: string): string {
  return Buffer.from(`x-access-token:${token}`).toString('base64');
}

/** The first argument that is not a global option (`-c k=v`, `-C dir`, `--no-pager`, …). */
function subcommandOf(args: readonly string[]): string {
  for (let index = 0; index < args.length; index++) {
    const arg = args[index]!;
    if (arg === '-c' || arg === '-C') index++;
    else if (!arg.startsWith('-')) return arg;
  }
  return 'git';
}

function tail(text: string): string {
  return text.trimEnd().split('\n').slice(-stderrTailLines).join('\n');
}

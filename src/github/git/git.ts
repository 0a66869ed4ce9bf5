import { execa } from 'execa';
import { GitError } from './git-error.ts';

/** Options of `runGit` and `spawnGit`. */
export interface RunGitOptions {
  /** The working directory (a checkout, or any directory for commands that need none). */
  cwd: string;
  /**
   * A GitHub token (installation or `GITHUB_TOKEN`). When given, HTTPS requests carry
   * `AUTHORIZATION: basic base64("x-access-token:" + token)` through `-c http.extraheader=…` on
   * the command line only: nothing is written to `.git/config`. Default: no authentication.
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
 * The `-c http.extraheader=…` arguments that authenticate HTTPS with `token`, for any URL and, more
 * specifically, for `serverUrl`'s (see `RunGitOptions.serverUrl`). Each empty value first resets the
 * headers inherited from the configuration files.
 */
export function authArgs(token: string | undefined, serverUrl = defaultServerUrl()): string[] {
  if (!token) return [];
  const header = `AUTHORIZATION: basic ${basicCredentials(token)}`;
  const keys = ['http.extraheader'];
  const origin = originOf(serverUrl);
  if (origin !== undefined) keys.push(`http.${origin}/.extraheader`);
  return keys.flatMap((key) => ['-c', `${key}=`, '-c', `${key}=${header}`]);
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
 * Runs `git <args>` and resolves with its standard output (final newline stripped). Git never
 * prompts: `GIT_TERMINAL_PROMPT=0`, stdin closed, ssh in batch mode; messages are in English
 * (`LC_ALL=C`). Rejects with `GitError` (subcommand, exit code, redacted stderr tail) on failure.
 */
export async function runGit(args: string[], options: RunGitOptions): Promise<string> {
  const result = await spawnGit(args, options);
  if (result.exitCode !== 0) throw new GitError(subcommandOf(args), result.exitCode, tail(result.stderr));
  return result.stdout;
}

/** Like `runGit`, but resolves with the result whatever the exit code (for `push --porcelain`). */
export async function spawnGit(args: string[], options: RunGitOptions): Promise<GitResult> {
  const env: Record<string, string> = {
    GIT_TERMINAL_PROMPT: '0',
    GCM_INTERACTIVE: 'never',
    LC_ALL: 'C',
    ...(process.env.GIT_SSH_COMMAND === undefined ? { GIT_SSH_COMMAND: 'ssh -o BatchMode=yes' } : {}),
    ...options.env,
  };
  const result = await execa('git', [...authArgs(options.token, options.serverUrl), ...args], {
    cwd: options.cwd,
    env,
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

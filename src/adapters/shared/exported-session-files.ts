import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { execa } from 'execa';
import stripAnsi from 'strip-ansi';
import type { SessionFileDeclaration, SessionLocation } from '../../core/adapter/session-files.ts';
import { isRegularFileInside } from '../../core/files/confined-files.ts';
import { fenceCommand } from '../../core/sandbox/index.ts';
import { SessionCommandError, type SessionCommandErrorCode } from './session-command-error.ts';

/** How an agent exports one session and imports it again with its own commands. */
export interface SessionCommands {
  /** The program's usual name (`opencode`), run when the location names no `command`; also names the staging directory. */
  program: string;
  /** The arguments that print session `sessionId` on stdout as JSON (`['export', id]`). */
  exportArgs(sessionId: string): string[];
  /** The arguments that import the session file at `path` (`['import', path]`). */
  importArgs(path: string): string[];
  /** Whether what the export printed (parsed JSON) is session `sessionId`; a mismatch is a failed export. */
  isSession(exported: unknown, sessionId: string): boolean;
  /** Environment for both commands over the agent's own (auto-update off, …). */
  env?: Readonly<Record<string, string>>;
  /** Each command's time limit in ms. Default 60 000. */
  timeoutMs?: number;
}

const DEFAULT_TIMEOUT_MS = 60_000;

/**
 * The declaration of an agent that keeps every session in one database (OpenCode, Kilo): a session
 * is carried as its export, one JSON file `<session id>.json` staged under
 * `~/.agent-mux/session-exports/<program>/`. Saving runs the export there (then the file is checked
 * and kept like any session file, and removed); restoring writes the file back there and runs the
 * import in the agent's working directory (the CLI files an imported session under the project of
 * the directory it runs in), then removes it.
 */
export function exportedSessionFiles(commands: SessionCommands): SessionFileDeclaration {
  const root = (location: SessionLocation) => join(location.home, '.agent-mux', 'session-exports', commands.program);
  const fileOf = (sessionId: string) => `${sessionId}.json`;
  return {
    root,
    async find(location, sessionId) {
      return (await isRegularFileInside(root(location), fileOf(sessionId))) ? [fileOf(sessionId)] : [];
    },
    async exportSession(location, sessionId) {
      const output = await run(commands, location, commands.exportArgs(sessionId), 'session_export_failed');
      let exported: unknown;
      try {
        exported = JSON.parse(output);
      } catch (error) {
        throw new SessionCommandError('session_export_failed', `${commands.program} printed no JSON for ${sessionId}`, {
          cause: error,
        });
      }
      if (!commands.isSession(exported, sessionId)) {
        throw new SessionCommandError(
          'session_export_failed',
          `${commands.program} printed another session than ${sessionId}`,
        );
      }
      await mkdir(root(location), { recursive: true, mode: 0o700 });
      await writeFile(join(root(location), fileOf(sessionId)), output, { mode: 0o600 });
    },
    async importSession(location, files) {
      try {
        for (const file of files) {
          await run(commands, location, commands.importArgs(join(root(location), file)), 'session_import_failed');
        }
      } finally {
        for (const file of files) await rm(join(root(location), file), { force: true });
      }
    },
  };
}

/**
 * Runs one of the agent's commands as the agent runs (its HOME, environment, directory, and fence:
 * the agent may have changed the config and plugins the command reads); its stdout.
 */
async function run(
  commands: SessionCommands,
  location: SessionLocation,
  args: readonly string[],
  code: SessionCommandErrorCode,
): Promise<string> {
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(location.env)) if (value !== undefined) env[name] = value;
  const target = {
    command: location.command ?? commands.program,
    args,
    cwd: location.cwd,
    workspace: location.cwd,
    env: { ...env, HOME: location.home, ...commands.env },
  };
  const spawned = location.fence ? fenceCommand(location.fence, { ...target, planValues: args }) : target;
  const result = await execa(spawned.command, spawned.args, {
    cwd: location.cwd,
    env: spawned.env,
    extendEnv: false,
    stdin: 'ignore',
    timeout: commands.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    reject: false,
  });
  if (result.failed) {
    const why = result.timedOut
      ? `timed out after ${commands.timeoutMs ?? DEFAULT_TIMEOUT_MS} ms`
      : result.exitCode !== undefined
        ? `exited with ${result.exitCode}`
        : (result.shortMessage ?? 'failed');
    const stderr = stripAnsi(String(result.stderr ?? ''))
      .trim()
      .slice(-500);
    throw new SessionCommandError(
      code,
      `\`${commands.program} ${args.join(' ')}\` ${why}${stderr ? `: ${stderr}` : ''}`,
      {
        cause: result,
      },
    );
  }
  return String(result.stdout);
}

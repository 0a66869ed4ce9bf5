import { once } from 'node:events';
import { execa } from 'execa';
import type { ExitInfo } from '../adapter/index.ts';
import { SpawnError } from '../errors/index.ts';

export interface SpawnDetachedOptions {
  cwd: string;
  /** The whole environment (nothing else is inherited). */
  env: Record<string, string>;
}

/** A started program: the leader of its own process group, on pipes. */
export interface DetachedProcess {
  readonly subprocess: DetachedSubprocess;
  readonly pid: number;
  /** Settles when the program has exited. */
  readonly exited: Promise<ExitInfo>;
  /** Settles when stdout and stderr have closed (a grandchild may hold them open after the exit). */
  readonly drained: Promise<void>;
  /** Writes to stdin; resolves when the data is handed to the OS, rejects when stdin is closed. */
  write(data: string): Promise<void>;
}

export type DetachedSubprocess = ReturnType<typeof execaDetached>;

/**
 * Starts a program on pipes in a new process group (`detached`), so that the whole group can be
 * signalled; nothing is buffered and no signal is sent by execa. Stdin write errors (EPIPE after the
 * program died) are swallowed: the exit reports them. Rejects with `SpawnError` when it cannot start.
 */
export async function spawnDetached(
  command: string,
  args: readonly string[],
  options: SpawnDetachedOptions,
): Promise<DetachedProcess> {
  const subprocess = execaDetached(command, args, options);
  // execa's promise settles after the streams close; the caller watches `exit` and the streams instead.
  subprocess.catch(() => undefined);
  const node = subprocess.nodeChildProcess;
  try {
    await new Promise<void>((resolve, reject) => {
      node.once('spawn', () => resolve());
      node.once('error', (error) => reject(error));
    });
  } catch (error) {
    throw new SpawnError(command, (error as Error).message, { cause: error });
  }
  const pid = subprocess.pid;
  if (pid === undefined) throw new SpawnError(command, 'no process id');
  subprocess.stdin.on('error', () => undefined);
  const exited = new Promise<ExitInfo>((resolve) => {
    node.once('exit', (code, signal) => resolve({ exitCode: code, signal }));
  });
  const drained = Promise.all([
    once(subprocess.stdout, 'close').catch(() => undefined),
    once(subprocess.stderr, 'close').catch(() => undefined),
  ]).then(() => undefined);
  const stdin = subprocess.stdin;
  const write = (data: string) =>
    new Promise<void>((resolve, reject) => {
      if (stdin.destroyed || stdin.writableEnded) {
        reject(new Error('stdin is closed'));
        return;
      }
      stdin.write(data, (error) => (error ? reject(error) : resolve()));
    });
  return { subprocess, pid, exited, drained, write };
}

function execaDetached(command: string, args: readonly string[], options: SpawnDetachedOptions) {
  return execa(command, [...args], {
    cwd: options.cwd,
    env: options.env,
    extendEnv: false,
    detached: true,
    cleanup: false,
    buffer: false,
    reject: false,
    stdin: 'pipe',
    stdout: 'pipe',
    stderr: 'pipe',
    encoding: 'buffer',
    forceKillAfterDelay: false,
    stripFinalNewline: false,
  });
}

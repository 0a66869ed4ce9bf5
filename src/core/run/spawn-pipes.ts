import { once } from 'node:events';
import { execa } from 'execa';
import type { ExitInfo, SpawnPlan } from '../adapter/index.ts';
import { SpawnError } from '../errors/index.ts';
import type { Child } from './child.ts';

/**
 * Starts a program on pipes in a new process group (`detached`), so that the whole group
 * can be signalled. Rejects with SpawnError when the program cannot be started.
 */
export async function spawnPipes(plan: SpawnPlan, env: Record<string, string>, cwd: string): Promise<Child> {
  const subprocess = execa(plan.command, [...plan.args], {
    cwd,
    env,
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
  // execa's promise settles after the streams close; we watch `exit` and the streams ourselves.
  subprocess.catch(() => undefined);

  const node = subprocess.nodeChildProcess;
  const spawned = new Promise<void>((resolve, reject) => {
    node.once('spawn', () => resolve());
    node.once('error', (error) => reject(error));
  });
  try {
    await spawned;
  } catch (error) {
    throw new SpawnError(plan.command, (error as Error).message, { cause: error });
  }
  const pid = subprocess.pid;
  if (pid === undefined) throw new SpawnError(plan.command, 'no process id');

  const stdin = subprocess.stdin;
  const stdout = subprocess.stdout;
  const stderr = subprocess.stderr;
  stdin.on('error', () => undefined); // EPIPE when the program exits without reading: reported by the run.

  const exited = new Promise<ExitInfo>((resolve) => {
    node.once('exit', (code, signal) => resolve({ exitCode: code, signal }));
  });
  const drained = Promise.all([
    once(stdout, 'close').catch(() => undefined),
    once(stderr, 'close').catch(() => undefined),
  ]).then(() => undefined);

  return {
    pid,
    onStdout: (listener) => stdout.on('data', listener),
    onStderr: (listener) => stderr.on('data', listener),
    write: (data) =>
      new Promise<void>((resolve, reject) => {
        if (stdin.destroyed || stdin.writableEnded) {
          reject(new Error('stdin is closed'));
          return;
        }
        stdin.write(data, (error) => (error ? reject(error) : resolve()));
      }),
    pendingStdinBytes: () => stdin.writableLength,
    closeStdin: () => {
      if (!stdin.writableEnded) stdin.end();
    },
    pause: () => stdout.pause(),
    resume: () => stdout.resume(),
    exited,
    drained,
  };
}

import type { SpawnPlan } from '../adapter/index.ts';
import type { Child } from './child.ts';
import { spawnDetached } from './spawn-detached.ts';

/**
 * Starts a program on pipes in a new process group (`detached`), so that the whole group
 * can be signalled. Rejects with SpawnError when the program cannot be started.
 */
export async function spawnPipes(plan: SpawnPlan, env: Record<string, string>, cwd: string): Promise<Child> {
  const { subprocess, pid, exited, drained, write } = await spawnDetached(plan.command, plan.args, { cwd, env });
  const { stdin, stdout, stderr } = subprocess;
  return {
    pid,
    onStdout: (listener) => stdout.on('data', listener),
    onStderr: (listener) => stderr.on('data', listener),
    write,
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

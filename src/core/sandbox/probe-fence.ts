import { execa } from 'execa';
import { fenceCommand } from './fence-command.ts';
import type { FenceOptions } from './fence-options.ts';

/** Whether the fence works on this machine, and why not. */
export type FenceProbe = { ok: true } | { ok: false; message: string };

/**
 * Starts `true` inside the fence once (bwrap present, user and PID namespaces allowed). Never
 * throws: a failure is described in `message`.
 */
export async function probeFence(fence: FenceOptions, dir: string): Promise<FenceProbe> {
  const wrapped = fenceCommand(fence, {
    command: 'true',
    args: [],
    cwd: dir,
    workspace: dir,
    env: { PATH: '/usr/bin:/bin' },
  });
  try {
    const result = await execa(wrapped.command, wrapped.args, {
      env: wrapped.env,
      extendEnv: false,
      reject: false,
      timeout: 10_000,
      stdin: 'ignore',
    });
    if (result.exitCode === 0) return { ok: true };
    const detail = String(result.stderr || result.stdout || result.message).trim();
    return { ok: false, message: `${wrapped.command} failed (exit ${result.exitCode ?? 'none'}): ${detail}` };
  } catch (error) {
    return { ok: false, message: `${wrapped.command}: ${(error as Error).message}` };
  }
}

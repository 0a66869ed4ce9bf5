import { execa } from 'execa';
import { fenceCommand } from './fence-command.ts';
import type { FenceOptions } from './fence-options.ts';
import { openNetworkFor } from './open-network-for.ts';

/** Whether the fence works on this machine, and why not. */
export type FenceProbe = { ok: true } | { ok: false; message: string };

/**
 * Starts `true` inside the fence once (bwrap present, user and PID namespaces allowed, and with a
 * network of its own, slirp4netns giving it egress). Never throws: a failure is described in `message`.
 */
export async function probeFence(fence: FenceOptions, dir: string): Promise<FenceProbe> {
  const target = { command: 'true', args: [], cwd: dir, workspace: dir, env: { PATH: '/usr/bin:/bin' } };
  let network: Awaited<ReturnType<typeof openNetworkFor>>;
  try {
    network = await openNetworkFor(fence, []);
  } catch (error) {
    return { ok: false, message: (error as Error).message };
  }
  const wrapped = fenceCommand(fence, target, network?.inside);
  try {
    const child = execa(wrapped.command, wrapped.args, {
      env: wrapped.env,
      extendEnv: false,
      reject: false,
      timeout: 10_000,
      stdin: 'ignore',
    });
    const attached = network && child.pid !== undefined ? network.attach(child.pid) : Promise.resolve();
    const failure = await attached.then(
      () => undefined,
      (error: Error) => {
        child.kill('SIGKILL');
        return error.message;
      },
    );
    const result = await child;
    if (result.exitCode === 0 && !failure) return { ok: true };
    const detail = String(result.stderr || result.stdout || result.message).trim();
    // bwrap's own complaint comes first: the network could not be set up because the fence never started.
    if (failure && (result.exitCode === undefined || result.isTerminated)) return { ok: false, message: failure };
    return { ok: false, message: `${wrapped.command} failed (exit ${result.exitCode ?? 'none'}): ${detail}` };
  } catch (error) {
    return { ok: false, message: `${wrapped.command}: ${(error as Error).message}` };
  } finally {
    await network?.close();
  }
}

import { mkdir } from 'node:fs/promises';
import { type FenceProbe, probeFence } from '../core/sandbox/index.ts';

let checked: Promise<FenceProbe> | undefined;

/**
 * Whether the agents' fence (bubblewrap, file-system kind) works on this machine: probed once per
 * process, with one clear log line when it does not (agents are then not started until the app
 * runs with a working bwrap or `AGENT_MUX_FENCE=off`).
 */
export function checkFence(workDir: string, log: (line: string) => void): Promise<FenceProbe> {
  checked ??= (async () => {
    await mkdir(workDir, { recursive: true });
    const probe = await probeFence({ kind: 'filesystem' }, workDir);
    if (!probe.ok) {
      log(
        `agent-mux: agents are not started: the fence does not work (${probe.message}). ` +
          'Install bubblewrap (apt-get install bubblewrap) and allow unprivileged user namespaces, ' +
          'or set AGENT_MUX_FENCE=off to run agents unfenced',
      );
    }
    return probe;
  })();
  return checked;
}

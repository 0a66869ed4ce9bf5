import { type FenceNetwork, openFenceNetwork } from './fence-network.ts';
import type { FenceOptions } from './fence-options.ts';
import { loopbackPortsOf } from './loopback-ports.ts';

/**
 * The host's half of the fence's own network when it has one (`network: 'own'`), relaying the
 * fence's `loopbackPorts` and the loopback ports that `values` (the plan's arguments, its
 * environment, the run's MCP URL) point at; undefined for any other fence.
 */
export async function openNetworkFor(
  fence: FenceOptions | undefined,
  values: Iterable<string | undefined>,
): Promise<FenceNetwork | undefined> {
  if (fence?.kind !== 'filesystem' || fence.network !== 'own') return undefined;
  return openFenceNetwork({
    ports: [...(fence.loopbackPorts ?? []), ...loopbackPortsOf(values)],
    ...(fence.slirp4netns ? { slirp4netns: fence.slirp4netns } : {}),
  });
}

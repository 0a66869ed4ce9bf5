export { type FencedCommand, type FenceTarget, fenceCommand } from './fence-command.ts';
export { type FenceNetwork, type FenceNetworkInside, openFenceNetwork } from './fence-network.ts';
export type { FenceOptions } from './fence-options.ts';
export { loopbackPortsOf } from './loopback-ports.ts';
export { openNetworkFor } from './open-network-for.ts';
export { type FenceProbe, probeFence } from './probe-fence.ts';

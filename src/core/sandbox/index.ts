export { type FencedCommand, type FenceTarget, fenceCommand } from './fence-command.ts';
export type { FenceOptions } from './fence-options.ts';
export { type FenceProbe, probeFence } from './probe-fence.ts';

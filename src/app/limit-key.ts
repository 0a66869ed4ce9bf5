import { adapterConfigTypes } from '../core/config/adapter-config-schema.ts';
import type { RepoConfig } from '../github/config/repo-config-schema.ts';
import { AGENT_LIMIT_PREFIX } from './check-adapter-limits.ts';

/**
 * What a run counts against in `AGENT_MUX_ADAPTER_LIMITS`: a built-in adapter's id (`codex`), or,
 * for an agent built from a configurable type (`adapter: http` with a GPU host's `url`, `process`),
 * `agent:<name>` (`agent:gpu-box`), since every remote host shares the type `http`.
 */
export function limitKey(config: RepoConfig, agentName: string): string {
  const adapter = Object.hasOwn(config.agents, agentName) ? config.agents[agentName]?.adapter : undefined;
  if (adapter === undefined) return agentName;
  return (adapterConfigTypes as readonly string[]).includes(adapter) ? `${AGENT_LIMIT_PREFIX}${agentName}` : adapter;
}

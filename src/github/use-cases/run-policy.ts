import { defaultPolicy } from '../../core/tools/default-policy.ts';
import type { PermissionPolicy } from '../../core/tools/permission-policy.ts';
import type { RepoConfig } from '../config/repo-config-schema.ts';

/**
 * The tool policy a run of `agentName` works under: the agent's own `policy` where the config gives
 * it one (it replaces `tools.policy` for that agent, as the config says), else the repository's
 * `tools.policy`, which so applies to every other agent, built-in ones included; the core default
 * policy only when the config sets neither.
 */
export function runPolicy(config: RepoConfig, agentName: string): PermissionPolicy {
  const agent = Object.hasOwn(config.agents, agentName) ? config.agents[agentName] : undefined;
  return agent?.policy ?? config.tools.policy ?? defaultPolicy;
}

import type { RepoConfig } from '../config/repo-config-schema.ts';

/**
 * The agents a run may use. When the repository config lists agents, only those (and its
 * `defaultAgent`, which the config names itself) may run: a comment cannot pick a built-in agent the
 * config left out, which would run outside the config's choices. With no agents listed, any agent the
 * front end has built in may run, under `tools.policy`.
 */
export function allowedAgents(config: RepoConfig, builtinAgents: readonly string[]): string[] {
  const configured = Object.keys(config.agents);
  if (configured.length === 0) return [...builtinAgents];
  return [...new Set([...configured, config.defaultAgent])];
}

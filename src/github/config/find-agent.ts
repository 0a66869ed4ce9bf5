import { BUILTIN_DEFAULT_AGENT, type RepoAgent, type RepoConfig } from './repo-config-schema.ts';

/**
 * The agent a run uses: `name` (from a comment such as `@agent codex: …`), else the config's
 * `defaultAgent`. The builtin `demo` agent exists even when `agents` does not list it.
 * Undefined when no agent has that name.
 */
export function findAgent(config: RepoConfig, name?: string): { name: string; agent: RepoAgent } | undefined {
  const wanted = name ?? config.defaultAgent;
  if (Object.hasOwn(config.agents, wanted)) return { name: wanted, agent: config.agents[wanted]! };
  if (wanted === BUILTIN_DEFAULT_AGENT) return { name: wanted, agent: { adapter: BUILTIN_DEFAULT_AGENT } };
  return undefined;
}

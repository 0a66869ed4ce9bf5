import type { Adapter } from '../../core/adapter/index.ts';
import { parseConfig } from '../../core/config/parse-config.ts';
import { ConfigError } from '../../core/errors/config-error.ts';
import { AdapterNotFoundError } from '../../core/errors/index.ts';
import type { AdapterRegistry } from '../../core/registry/adapter-registry.ts';
import type { RepoConfig } from '../config/repo-config-schema.ts';
import { allowedAgents } from './allowed-agents.ts';

/** Adapter types whose agent is described by options (a command, a URL) rather than built in. */
const CONFIG_TYPES = new Set([
  'process',
  'http',
  'generic-cli',
  'generic-job',
  'external',
  'chat-sse',
  'generic-http',
  'acp',
]);

/**
 * The adapter a built-in agent's name runs on GitHub when the repository config does not list that
 * agent: where the agent's ACP mode can ask for approval and its headless mode cannot, GitHub gets
 * the ACP mode (`agent: codex` / `@agent codex:` → `codex-acp`). Listing the agent with
 * `adapter: codex` keeps the headless mode. docs/adapters/acp.md explains the choice per agent.
 */
export const GITHUB_DEFAULT_ADAPTERS: Readonly<Record<string, string>> = { codex: 'codex-acp' };

export interface ResolvedAgent {
  adapter: Adapter;
  model: string | undefined;
}

/**
 * The adapter for a configured agent: a built-in one by id (an unlisted built-in name through
 * `GITHUB_DEFAULT_ADAPTERS`), or one of the configurable types
 * (`process`, `http`, …) built from the agent's `options` (and `url` as the remote's base URL). An
 * agent the config does not list is a built-in one, and only when the config lists none (or names
 * it as `defaultAgent`): see `allowedAgents`.
 * Errors are `ConfigError`s naming `agents.<name>.…` in the repository config file.
 */
export function resolveAgentAdapter(input: {
  registry: AdapterRegistry;
  agentName: string;
  config: RepoConfig;
  file: string;
}): ResolvedAgent {
  const { registry, agentName, config, file } = input;
  const agent = Object.hasOwn(config.agents, agentName) ? config.agents[agentName] : undefined;
  if (agent === undefined) {
    // A built-in agent runs only when the config lists no agents, or names it as its default.
    if (!allowedAgents(config, registry.ids()).includes(agentName)) {
      const listed = Object.keys(config.agents).join(', ');
      throw new ConfigError(file, [
        { path: 'agents', message: `"${agentName}" is not one of this repository's agents (${listed})` },
      ]);
    }
    const preferred = Object.hasOwn(GITHUB_DEFAULT_ADAPTERS, agentName)
      ? GITHUB_DEFAULT_ADAPTERS[agentName]
      : undefined;
    const id = preferred !== undefined && registry.has(preferred) ? preferred : agentName;
    return { adapter: getBuiltIn(registry, id, file, 'defaultAgent'), model: undefined };
  }
  if (!CONFIG_TYPES.has(agent.adapter)) {
    return { adapter: getBuiltIn(registry, agent.adapter, file, `agents.${agentName}.adapter`), model: agent.model };
  }
  const entry = { type: agent.adapter, ...(agent.options ?? {}), ...(agent.url ? { baseUrl: agent.url } : {}) };
  const prefix = `adapters.${agentName}`;
  try {
    const parsed = parseConfig(JSON.stringify({ adapters: { [agentName]: entry } }), file);
    registry.loadConfig(parsed, file);
  } catch (error) {
    if (!ConfigError.isInstance(error)) throw error;
    const issues = error.issues.map((i) => ({
      path: i.path.startsWith(prefix) ? `agents.${agentName}.options${i.path.slice(prefix.length)}` : i.path,
      message: i.message,
    }));
    throw new ConfigError(file, issues, { cause: error });
  }
  return { adapter: registry.get(agentName), model: agent.model };
}

function getBuiltIn(registry: AdapterRegistry, id: string, file: string, path: string): Adapter {
  try {
    return registry.get(id);
  } catch (error) {
    if (!AdapterNotFoundError.isInstance(error)) throw error;
    throw new ConfigError(file, [{ path, message: error.message }], { cause: error });
  }
}

import type { Adapter } from '../../core/adapter/index.ts';
import {
  type AdapterConfigType,
  adapterConfigSchema,
  adapterConfigTypes,
} from '../../core/config/adapter-config-schema.ts';
import { configIssuesFromZod } from '../../core/config/config-issues-from-zod.ts';
import { formatConfigPath } from '../../core/config/format-config-path.ts';
import { ConfigError, type ConfigIssue } from '../../core/errors/config-error.ts';
import { AdapterNotFoundError } from '../../core/errors/index.ts';
import type { AdapterRegistry } from '../../core/registry/adapter-registry.ts';
import type { RepoConfig } from '../config/repo-config-schema.ts';
import { allowedAgents } from './allowed-agents.ts';

/**
 * The adapter a built-in agent's name runs on GitHub when the repository config does not list that
 * agent: where the agent's ACP mode can ask for approval and its headless mode cannot, GitHub gets
 * the ACP mode (`agent: codex` / `@agent codex:` → `codex-acp`), as the agent's adapter declares it
 * (`Adapter.approvingMode`). Listing the agent with `adapter: codex` keeps the headless mode.
 * Gemini CLI declares none and stays headless: over ACP 0.61.0 a follow-up within the first turn's
 * minute cannot load its session, and a loaded one streams its history again after the load.
 * docs/adapters/acp.md explains the choice per agent.
 */
export function githubDefaultAdapterId(registry: AdapterRegistry, agentName: string): string {
  const preferred = registry.has(agentName) ? registry.get(agentName).approvingMode : undefined;
  return preferred !== undefined && registry.has(preferred) ? preferred : agentName;
}

export interface ResolvedAgent {
  adapter: Adapter;
  model: string | undefined;
}

/**
 * The adapter for a configured agent: a built-in one by id (an unlisted built-in name through
 * `githubDefaultAdapterId`), or one of the configurable types
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
    const id = githubDefaultAdapterId(registry, agentName);
    return { adapter: getBuiltIn(registry, id, file, 'defaultAgent'), model: undefined };
  }
  if (!isConfigType(agent.adapter)) {
    return { adapter: getBuiltIn(registry, agent.adapter, file, `agents.${agentName}.adapter`), model: agent.model };
  }
  // The options are an adapter config entry of that type: checked with its schema, built by the registry.
  const entry = { type: agent.adapter, ...(agent.options ?? {}), ...(agent.url ? { baseUrl: agent.url } : {}) };
  const optionsPath = ['agents', agentName, 'options'];
  const parsed = adapterConfigSchema.safeParse(entry, { reportInput: true });
  if (!parsed.success) {
    const issues = configIssuesFromZod(parsed.error, { schema: adapterConfigSchema, data: entry });
    throw new ConfigError(file, issues.map(under(optionsPath)), { cause: parsed.error });
  }
  try {
    registry.loadConfig({ adapters: { [agentName]: parsed.data } }, file);
  } catch (error) {
    if (!ConfigError.isInstance(error)) throw error;
    const entryPath = formatConfigPath(['adapters', agentName]);
    const issues = error.issues.map((i) =>
      i.path === entryPath || i.path.startsWith(`${entryPath}.`) || i.path.startsWith(`${entryPath}[`)
        ? under(optionsPath)({ path: i.path.slice(entryPath.length).replace(/^\./, ''), message: i.message })
        : { path: i.path, message: i.message },
    );
    throw new ConfigError(file, issues, { cause: error });
  }
  return { adapter: registry.get(agentName), model: agent.model };
}

/** Whether an agent's `adapter` is a configurable type (described by options: a command, a URL), not a built-in id. */
function isConfigType(adapter: string): adapter is AdapterConfigType {
  return (adapterConfigTypes as readonly string[]).includes(adapter);
}

/** An issue of an adapter config entry, named at its place in the repository config (without a line: there is none). */
function under(prefix: readonly string[]): (issue: ConfigIssue) => ConfigIssue {
  const base = formatConfigPath(prefix);
  return (issue) => ({
    path: issue.path === '' ? base : issue.path.startsWith('[') ? `${base}${issue.path}` : `${base}.${issue.path}`,
    message: issue.message,
  });
}

function getBuiltIn(registry: AdapterRegistry, id: string, file: string, path: string): Adapter {
  try {
    return registry.get(id);
  } catch (error) {
    if (!AdapterNotFoundError.isInstance(error)) throw error;
    throw new ConfigError(file, [{ path, message: error.message }], { cause: error });
  }
}

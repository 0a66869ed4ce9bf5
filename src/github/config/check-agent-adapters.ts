import { adapterConfigTypes } from '../../core/config/adapter-config-schema.ts';
import { lineOfConfigPath } from '../../core/config/source-locator.ts';
import { ConfigError, type ConfigIssue } from '../../core/errors/config-error.ts';
import { AdapterNotFoundError } from '../../core/errors/index.ts';
import type { RepoConfig } from './repo-config-schema.ts';

/**
 * The agents of a repository config whose `adapter` this host cannot run: neither an adapter it
 * knows (`knownAdapters`: the registry's ids, built-in or configured for the host) nor a configurable
 * type (`process`, `http`, …). Each issue names `agents.<name>.adapter` with its line and a
 * did-you-mean, so a typo (`adapter: claud`) is a config error before any run starts rather than
 * a run that fails to start. Undefined when every adapter is known.
 */
export function checkAgentAdapters(
  config: RepoConfig,
  knownAdapters: readonly string[],
  file: string,
): ConfigError | undefined {
  const known = [...new Set(knownAdapters)].sort();
  const issues: ConfigIssue[] = [];
  for (const [name, agent] of Object.entries(config.agents)) {
    const id = agent.adapter;
    if (known.includes(id) || (adapterConfigTypes as readonly string[]).includes(id)) continue;
    const line = lineOfConfigPath(config, ['agents', name, 'adapter'], 'value');
    issues.push({
      path: `agents.${name}.adapter`,
      message: `${new AdapterNotFoundError(id, known).message}; or a type built from options: ${adapterConfigTypes.join(', ')}`,
      ...(line === undefined ? {} : { line }),
    });
  }
  return issues.length === 0 ? undefined : new ConfigError(file, issues);
}

import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { createBuiltinRegistry } from '../../adapters/builtin-registry.ts';
import type { Adapter } from '../../core/adapter/index.ts';
import { type AgentMuxConfig, parseConfig } from '../../core/config/index.ts';
import { ConfigError } from '../../core/errors/index.ts';
import type { AdapterRegistry } from '../../core/registry/adapter-registry.ts';
import { UsageError } from '../usage-error.ts';

/**
 * The built-in adapters plus those of `--config` (JSON or YAML), if given. Messages name the
 * file as the user wrote it. Throws ConfigError.
 */
export async function loadRegistry(
  configPath: string | undefined,
  cwd: string,
): Promise<{ registry: AdapterRegistry; config?: AgentMuxConfig }> {
  const registry = createBuiltinRegistry();
  if (!configPath) return { registry };
  let text: string;
  try {
    text = await readFile(resolve(cwd, configPath), 'utf8');
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'file not found' : (error as Error).message;
    throw new ConfigError(configPath, [{ path: '', message: `cannot read the configuration: ${reason}` }], {
      cause: error,
    });
  }
  const config = parseConfig(text, configPath);
  registry.loadConfig(config, configPath);
  return { registry, config };
}

/** The options of a command that runs one agent: `--adapter <id>`, `--config <file>` (its agents join the built-ins), `--help`. */
export const AGENT_OPTIONS = {
  adapter: { type: 'string' },
  config: { type: 'string' },
  help: { type: 'boolean', short: 'h', default: false },
} as const;

/** The adapter `--adapter` names, among the built-ins and the agents of `--config`. Throws UsageError, ConfigError. */
export async function loadAdapter(
  values: { adapter?: string | undefined; config?: string | undefined },
  cwd: string,
): Promise<{ adapter: Adapter; config?: AgentMuxConfig }> {
  if (!values.adapter) throw new UsageError('--adapter is required');
  const { registry, config } = await loadRegistry(values.config, cwd);
  return { adapter: registry.get(values.adapter), ...(config ? { config } : {}) };
}

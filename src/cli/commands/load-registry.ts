import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { createBuiltinRegistry } from '../../adapters/builtin-registry.ts';
import { type AgentMuxConfig, parseConfig } from '../../core/config/index.ts';
import { ConfigError } from '../../core/errors/index.ts';
import type { AdapterRegistry } from '../../core/registry/adapter-registry.ts';

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

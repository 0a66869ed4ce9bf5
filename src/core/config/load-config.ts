import { readFile } from 'node:fs/promises';
import { ConfigError } from '../errors/index.ts';
import type { AgentMuxConfig } from './config-schema.ts';
import { parseConfig } from './parse-config.ts';

/** Reads, parses and validates a configuration file (JSON or YAML). Throws `ConfigError`. */
export async function loadConfig(file: string): Promise<AgentMuxConfig> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'file not found' : (error as Error).message;
    throw new ConfigError(file, [{ path: '', message: `cannot read the configuration: ${reason}` }], {
      cause: error,
    });
  }
  return parseConfig(text, file);
}

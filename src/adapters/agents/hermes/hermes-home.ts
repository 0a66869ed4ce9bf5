import { homedir } from 'node:os';
import { join } from 'node:path';

/** Hermes's home: `HERMES_HOME`, else `~/.hermes` (config.yaml, .env, auth.json, state.db). */
export function hermesHome(env: Readonly<Record<string, string | undefined>>): string {
  return env.HERMES_HOME || join(env.HOME || homedir(), '.hermes');
}

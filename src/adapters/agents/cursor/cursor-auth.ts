import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import type { AuthStatus } from '../../../core/adapter/index.ts';

export const CURSOR_KEY_ENV = ['CURSOR_API_KEY'] as const;

/**
 * Read-only and local: CURSOR_API_KEY, else the login `cursor-agent login` stores (`auth.json` in
 * `$CURSOR_CONFIG_DIR`, `$XDG_CONFIG_HOME/cursor` or `~/.config/cursor`, or `~/.cursor`). On macOS
 * the token may be in the keychain: a CLI config without `auth.json` is `unknown`.
 */
export function detectCursorAuth(env: Readonly<Record<string, string | undefined>>): AuthStatus {
  if (env.CURSOR_API_KEY) return { status: 'authenticated', method: 'api_key', details: ['CURSOR_API_KEY'] };
  const dirs = [
    env.CURSOR_CONFIG_DIR,
    join(env.XDG_CONFIG_HOME || join(homedir(), '.config'), 'cursor'),
    join(homedir(), '.cursor'),
  ].filter((d): d is string => Boolean(d));
  for (const dir of dirs) {
    const file = join(dir, 'auth.json');
    if (existsSync(file)) return { status: 'authenticated', method: 'browser_login', details: [file] };
  }
  const config = join(env.CURSOR_CONFIG_DIR || join(homedir(), '.cursor'), 'cli-config.json');
  if (existsSync(config)) return { status: 'unknown', method: 'browser_login', details: [config] };
  return { status: 'unauthenticated' };
}

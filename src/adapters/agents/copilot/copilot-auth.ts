import { existsSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import type { AuthStatus } from '../../../core/adapter/index.ts';

/** GitHub tokens Copilot reads, in its order of precedence (`copilot help environment`). */
export const COPILOT_TOKEN_ENV = ['COPILOT_GITHUB_TOKEN', 'GH_TOKEN', 'GITHUB_TOKEN'] as const;
/** Credentials of a bring-your-own-key provider (`copilot help providers`). */
export const COPILOT_PROVIDER_SECRET_ENV = [
  'COPILOT_PROVIDER_API_KEY',
  'COPILOT_PROVIDER_BEARER_TOKEN',
  'COPILOT_PROVIDER_HEADERS',
] as const;

/** Copilot's state directory: `$COPILOT_HOME`, else `~/.copilot`. */
export function copilotHome(env: Readonly<Record<string, string | undefined>>): string {
  return env.COPILOT_HOME || join(homedir(), '.copilot');
}

/**
 * Read-only and local: a GitHub token in the environment, a BYOK provider (no GitHub login
 * needed), a login remembered in `~/.copilot/config.json` (the token itself may be in the system
 * keychain, so a config that names no user is `unknown`), or the GitHub CLI's login (Copilot's
 * lowest-priority fallback).
 */
export function detectCopilotAuth(env: Readonly<Record<string, string | undefined>>): AuthStatus {
  const token = COPILOT_TOKEN_ENV.find((name) => env[name]);
  if (token) return { status: 'authenticated', method: 'api_key', details: [token] };
  if (env.COPILOT_PROVIDER_BASE_URL) {
    const key = ['COPILOT_PROVIDER_BEARER_TOKEN', 'COPILOT_PROVIDER_API_KEY', 'COPILOT_PROVIDER_API_KEY_COMMAND'].find(
      (name) => env[name],
    );
    return { status: 'authenticated', method: 'byok', details: ['COPILOT_PROVIDER_BASE_URL', ...(key ? [key] : [])] };
  }
  const config = join(copilotHome(env), 'config.json');
  if (existsSync(config)) {
    const text = safeRead(config);
    if (/"(logged_in_users|loggedInUsers|last_logged_in_user|lastLoggedInUser)"\s*:\s*[[{]/.test(text)) {
      return { status: 'authenticated', method: 'oauth', details: [config] };
    }
  }
  const gh = join(env.GH_CONFIG_DIR || join(env.XDG_CONFIG_HOME || join(homedir(), '.config'), 'gh'), 'hosts.yml');
  if (existsSync(gh) && /oauth_token:|user:/.test(safeRead(gh))) {
    return { status: 'authenticated', method: 'gh_cli', details: [gh] };
  }
  if (existsSync(config)) return { status: 'unknown', method: 'oauth', details: [config] };
  return { status: 'unauthenticated' };
}

function safeRead(path: string): string {
  try {
    return readFileSync(path, 'utf8').slice(0, 200_000);
  } catch {
    return '';
  }
}

import { existsSync, readFileSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import type { AuthStatus } from '../../../core/adapter/index.ts';
import { firstSetEnv } from '../../shared/first-set-env.ts';
import { hasCredentialsFile } from '../../shared/has-credentials-file.ts';

/** Environment variables that carry Claude Code credentials (secrets, redacted everywhere). */
/** The Action's inputs for Claude Code's keys: an API key, or a subscription's OAuth token (`claude setup-token`). */
export const CLAUDE_KEY_INPUTS = {
  'anthropic-api-key': 'ANTHROPIC_API_KEY',
  'claude-code-oauth-token': 'CLAUDE_CODE_OAUTH_TOKEN',
} as const;

export const CLAUDE_SECRET_ENV = ['ANTHROPIC_API_KEY', 'ANTHROPIC_AUTH_TOKEN', 'CLAUDE_CODE_OAUTH_TOKEN'] as const;

type Env = Readonly<Record<string, string | undefined>>;

/** Claude Code's config directory: `$CLAUDE_CONFIG_DIR`, else `~/.claude`. */
export function claudeConfigDir(env: Env): string {
  return env.CLAUDE_CONFIG_DIR || join(env.HOME || homedir(), '.claude');
}

const truthy = (env: Env, name: string) => ['1', 'true', 'yes'].includes((env[name] ?? '').toLowerCase());

/**
 * Where Claude Code would find credentials, looked up locally and read-only: API key or token env
 * vars, a cloud provider switch (Bedrock, Vertex, Foundry: their own credentials apply), the OAuth
 * login file `<config>/.credentials.json` (Linux; macOS keeps it in the keychain, which is not read
 * here), and `~/.claude.json`'s `oauthAccount` / `primaryApiKey`.
 */
export function detectClaudeAuth(env: Env): AuthStatus {
  const key = firstSetEnv(CLAUDE_SECRET_ENV, env);
  if (key)
    return { status: 'authenticated', method: key === 'ANTHROPIC_API_KEY' ? 'api_key' : 'oauth', details: [key] };
  for (const name of ['CLAUDE_CODE_USE_BEDROCK', 'CLAUDE_CODE_USE_VERTEX', 'CLAUDE_CODE_USE_FOUNDRY']) {
    if (truthy(env, name)) return { status: 'unknown', method: 'cloud_provider', details: [name] };
  }
  const configDir = claudeConfigDir(env);
  const credentials = join(configDir, '.credentials.json');
  if (hasCredentialsFile(credentials)) {
    return { status: 'authenticated', method: 'browser_login', details: [credentials] };
  }
  const globalConfig = env.CLAUDE_CONFIG_DIR
    ? join(configDir, '.claude.json')
    : join(env.HOME || homedir(), '.claude.json');
  try {
    if (existsSync(globalConfig) && statSync(globalConfig).size < 5 * 1024 * 1024) {
      const config = JSON.parse(readFileSync(globalConfig, 'utf8')) as Record<string, unknown>;
      if (typeof config.primaryApiKey === 'string' && config.primaryApiKey !== '') {
        return { status: 'authenticated', method: 'config_file', details: [globalConfig] };
      }
      if (config.oauthAccount && typeof config.oauthAccount === 'object') {
        // Logged in; on macOS the token itself is in the keychain, which a local look does not open.
        return {
          status: process.platform === 'darwin' ? 'authenticated' : 'unknown',
          method: 'browser_login',
          details: [globalConfig],
        };
      }
    }
  } catch {
    // malformed config: nothing known
  }
  return { status: 'unauthenticated', details: [...CLAUDE_SECRET_ENV, credentials] };
}

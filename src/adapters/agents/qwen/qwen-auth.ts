import { homedir } from 'node:os';
import { join } from 'node:path';
import type { AuthStatus } from '../../../core/adapter/index.ts';
import { firstSetEnv } from '../../shared/first-set-env.ts';
import { hasCredentialsFile } from '../../shared/has-credentials-file.ts';
import { readSettings, selectedAuthType } from '../gemini/gemini-settings.ts';

/** Environment variables that carry Qwen Code credentials (secrets, redacted everywhere). */
export const QWEN_SECRET_ENV = [
  'OPENAI_API_KEY',
  'DASHSCOPE_API_KEY',
  'ANTHROPIC_API_KEY',
  'GEMINI_API_KEY',
  'GOOGLE_API_KEY',
] as const;

type Env = Readonly<Record<string, string | undefined>>;

/** `$QWEN_HOME`, else `~/.qwen`. */
export function qwenDir(env: Env): string {
  return env.QWEN_HOME || join(env.HOME || homedir(), '.qwen');
}

/**
 * Where Qwen Code would find credentials, read-only and local: an OpenAI-compatible key
 * (`OPENAI_API_KEY`, `DASHSCOPE_API_KEY`; with `OPENAI_BASE_URL`/`OPENAI_MODEL` it talks Chat
 * Completions), another provider's key, an auth type and key in `~/.qwen/settings.json`, or the
 * Qwen OAuth file `~/.qwen/oauth_creds.json` (Qwen OAuth was removed in 0.24: status unknown).
 */
export function detectQwenAuth(env: Env): AuthStatus {
  const key = firstSetEnv(QWEN_SECRET_ENV, env);
  if (key) return { status: 'authenticated', method: 'api_key', details: [key] };
  const dir = qwenDir(env);
  const settingsFile = join(dir, 'settings.json');
  const settings = readSettings(settingsFile);
  const security = settings?.security as { auth?: { apiKey?: unknown } } | undefined;
  if (selectedAuthType(settings) && typeof security?.auth?.apiKey === 'string' && security.auth.apiKey !== '') {
    return { status: 'authenticated', method: 'config_file', details: [settingsFile] };
  }
  const oauth = join(dir, 'oauth_creds.json');
  if (hasCredentialsFile(oauth)) return { status: 'unknown', method: 'oauth', details: [oauth] };
  return { status: 'unauthenticated', details: ['OPENAI_API_KEY', settingsFile] };
}

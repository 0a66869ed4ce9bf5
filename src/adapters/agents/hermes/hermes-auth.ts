import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { AuthStatus } from '../../../core/adapter/index.ts';
import { readSmallText } from '../../shared/read-small-text.ts';
import { hermesHome } from './hermes-home.ts';

/** Provider key env vars hermes reads (hermes-agent's documented list plus the common direct providers). */
export const HERMES_KEY_ENV = [
  'OPENROUTER_API_KEY',
  'NOUS_API_KEY',
  'ANTHROPIC_API_KEY',
  'OPENAI_API_KEY',
  'GOOGLE_API_KEY',
  'GEMINI_API_KEY',
  'XAI_API_KEY',
] as const;

/** Read-only, local: key env vars, `~/.hermes/.env`, `~/.hermes/auth.json` (OAuth logins), inline keys in `config.yaml`. */
export function detectHermesAuth(env: Readonly<Record<string, string | undefined>>): AuthStatus {
  const fromEnv = HERMES_KEY_ENV.filter((name) => env[name]);
  if (fromEnv.length > 0) return { status: 'authenticated', method: 'api_key', details: fromEnv };
  const home = hermesHome(env);
  const dotenv = join(home, '.env');
  const dotenvText = readSmallText(dotenv);
  if (dotenvText && /^\s*(export\s+)?[A-Z0-9_]*(API_KEY|TOKEN)\s*=\s*\S/m.test(dotenvText)) {
    return { status: 'authenticated', method: 'config_file', details: [dotenv] };
  }
  const authFile = join(home, 'auth.json');
  if (existsSync(authFile)) return { status: 'authenticated', method: 'oauth', details: [authFile] };
  const config = join(home, 'config.yaml');
  const configText = readSmallText(config);
  if (configText && /^\s*api_key\s*:\s*\S/m.test(configText)) {
    return { status: 'authenticated', method: 'config_file', details: [config] };
  }
  return { status: 'unauthenticated' };
}

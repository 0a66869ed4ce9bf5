import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { AuthStatus } from '../../../core/adapter/index.ts';
import { readSmallText } from '../../shared/read-small-text.ts';
import { openclawConfigPath, openclawHome } from './openclaw-plan.ts';

/** Provider key env vars OpenClaw's bundled providers read (the common ones). */
export const OPENCLAW_KEY_ENV = [
  'ANTHROPIC_API_KEY',
  'OPENAI_API_KEY',
  'GEMINI_API_KEY',
  'GOOGLE_API_KEY',
  'OPENROUTER_API_KEY',
  'XAI_API_KEY',
  'MISTRAL_API_KEY',
  'GROQ_API_KEY',
  'DEEPSEEK_API_KEY',
] as const;

/**
 * Read-only, local: provider key env vars, then `~/.openclaw/.env` (the documented place for keys),
 * then inline `apiKey`s in `openclaw.json`, then the agent's SQLite credential store (present but
 * not readable cheaply: `unknown`).
 */
export function detectOpenclawAuth(env: Readonly<Record<string, string | undefined>>): AuthStatus {
  const fromEnv = OPENCLAW_KEY_ENV.filter((name) => env[name]);
  if (fromEnv.length > 0) return { status: 'authenticated', method: 'api_key', details: fromEnv };
  const stateDir = env.OPENCLAW_STATE_DIR || join(openclawHome(env), '.openclaw');
  const dotenv = join(stateDir, '.env');
  const dotenvText = readSmallText(dotenv);
  if (
    dotenvText &&
    OPENCLAW_KEY_ENV.some((name) => new RegExp(`^\\s*(export\\s+)?${name}\\s*=\\s*\\S`, 'm').test(dotenvText))
  ) {
    return { status: 'authenticated', method: 'config_file', details: [dotenv] };
  }
  const config = openclawConfigPath(env);
  const configText = readSmallText(config);
  if (configText && /apiKey["']?\s*:\s*["'][^"']+["']/.test(configText)) {
    return { status: 'authenticated', method: 'config_file', details: [config] };
  }
  const store = join(stateDir, 'agents', 'main', 'agent', 'openclaw-agent.sqlite');
  if (existsSync(store)) return { status: 'unknown', method: 'credential_store', details: [store] };
  return { status: 'unauthenticated' };
}

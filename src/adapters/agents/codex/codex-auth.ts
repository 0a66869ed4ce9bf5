import { readFileSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import type { AuthStatus } from '../../../core/adapter/index.ts';
import { firstSetEnv } from '../../shared/first-set-env.ts';

/** Where Codex keeps its config, auth and sessions: `$CODEX_HOME`, else `~/.codex`. */
export function codexHome(env: Readonly<Record<string, string | undefined>>): string {
  return env.CODEX_HOME || join(env.HOME || homedir(), '.codex');
}

/** The auth.json file is small; anything bigger is not Codex's. */
const maxAuthFileBytes = 1024 * 1024;

/**
 * Read-only, local: `CODEX_API_KEY` / `OPENAI_API_KEY`, then `$CODEX_HOME/auth.json` (written by
 * `codex login`: `OPENAI_API_KEY` for an API key login, `tokens` for a ChatGPT sign-in).
 * Credentials kept in the OS keyring (`cli_auth_credentials_store = "keyring"`) are not visible: `unknown`.
 */
export function detectCodexAuth(env: Readonly<Record<string, string | undefined>>): AuthStatus {
  const key = firstSetEnv(['CODEX_API_KEY', 'OPENAI_API_KEY'], env);
  if (key) return { status: 'authenticated', method: 'api_key', details: [key] };
  const file = join(codexHome(env), 'auth.json');
  let text: string;
  try {
    if (statSync(file).size > maxAuthFileBytes) return { status: 'unknown', details: [file] };
    text = readFileSync(file, 'utf8');
  } catch {
    return { status: 'unauthenticated', details: ['CODEX_API_KEY', 'OPENAI_API_KEY', file] };
  }
  let auth: unknown;
  try {
    auth = JSON.parse(text);
  } catch {
    return { status: 'unknown', method: 'config_file', details: [file] };
  }
  if (typeof auth !== 'object' || auth === null) return { status: 'unknown', method: 'config_file', details: [file] };
  const record = auth as Record<string, unknown>;
  if (typeof record.OPENAI_API_KEY === 'string' && record.OPENAI_API_KEY.trim()) {
    return { status: 'authenticated', method: 'api_key', details: [file] };
  }
  const tokens = record.tokens;
  if (typeof tokens === 'object' && tokens !== null && Object.keys(tokens).length > 0) {
    return { status: 'authenticated', method: 'oauth', details: [file] };
  }
  return { status: 'unauthenticated', details: [file] };
}

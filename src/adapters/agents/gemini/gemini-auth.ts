import { homedir } from 'node:os';
import { join } from 'node:path';
import type { AuthStatus } from '../../../core/adapter/index.ts';
import { firstSetEnv } from '../../shared/first-set-env.ts';
import { hasCredentialsFile } from '../../shared/has-credentials-file.ts';

/** Environment variables that carry Gemini CLI credentials (secrets, redacted everywhere). */
export const GEMINI_SECRET_ENV = ['GEMINI_API_KEY', 'GOOGLE_API_KEY', 'GOOGLE_CLOUD_ACCESS_TOKEN'] as const;

type Env = Readonly<Record<string, string | undefined>>;

/** `$GEMINI_CLI_HOME/.gemini`, else `~/.gemini`. */
export function geminiDir(env: Env): string {
  return join(env.GEMINI_CLI_HOME || env.HOME || homedir(), '.gemini');
}

/**
 * Where Gemini CLI would find credentials, read-only and local: an API key in the environment
 * (`GEMINI_API_KEY`, `GOOGLE_API_KEY`), Vertex AI settings (`GOOGLE_GENAI_USE_VERTEXAI` with
 * application default credentials: not checked here), or the Google login `~/.gemini/oauth_creds.json`.
 */
export function detectGeminiAuth(env: Env): AuthStatus {
  const key = firstSetEnv(['GEMINI_API_KEY', 'GOOGLE_API_KEY'], env);
  if (key) return { status: 'authenticated', method: 'api_key', details: [key] };
  if (['1', 'true'].includes((env.GOOGLE_GENAI_USE_VERTEXAI ?? '').toLowerCase())) {
    return { status: 'unknown', method: 'cloud_provider', details: ['GOOGLE_GENAI_USE_VERTEXAI'] };
  }
  const creds = join(geminiDir(env), 'oauth_creds.json');
  if (hasCredentialsFile(creds)) return { status: 'authenticated', method: 'browser_login', details: [creds] };
  return { status: 'unauthenticated', details: ['GEMINI_API_KEY', 'GOOGLE_API_KEY', creds] };
}

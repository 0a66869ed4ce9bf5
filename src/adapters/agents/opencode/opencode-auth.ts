import { existsSync, readFileSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import type { AuthStatus } from '../../../core/adapter/index.ts';
import { apiKeyAuth } from '../../shared/api-key-auth.ts';

/** Provider API key env vars OpenCode (models.dev `env` entries) and Kilo read, most common first. */
export const openCodeProviderKeyEnv = [
  'ANTHROPIC_API_KEY',
  'OPENAI_API_KEY',
  'GEMINI_API_KEY',
  'GOOGLE_GENERATIVE_AI_API_KEY',
  'OPENROUTER_API_KEY',
  'GROQ_API_KEY',
  'XAI_API_KEY',
  'DEEPSEEK_API_KEY',
  'MISTRAL_API_KEY',
  'GITHUB_TOKEN',
  'AWS_BEARER_TOKEN_BEDROCK',
  'AZURE_API_KEY',
] as const;

/** `$XDG_DATA_HOME/<app>` or `~/.local/share/<app>`: where the CLI keeps auth.json and its database. */
export function openCodeDataDir(app: string, env: Readonly<Record<string, string | undefined>>): string {
  const base = env.XDG_DATA_HOME || join(homedir(), '.local', 'share');
  return join(base, app);
}

/**
 * Read-only, local: the CLI's own key env vars, provider key env vars, then `auth.json` in its
 * data dir (written by `<cli> auth login`; a JSON object of provider → credentials).
 */
export function detectOpenCodeStyleAuth(
  app: string,
  ownEnv: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
): AuthStatus {
  const fromEnv = apiKeyAuth([...ownEnv, ...openCodeProviderKeyEnv], env);
  if (fromEnv) return fromEnv;
  const file = join(openCodeDataDir(app, env), 'auth.json');
  try {
    if (existsSync(file) && statSync(file).size < 1_000_000) {
      const parsed = JSON.parse(readFileSync(file, 'utf8')) as unknown;
      const providers =
        typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? Object.keys(parsed) : [];
      if (providers.length > 0)
        return {
          status: 'authenticated',
          method: 'config_file',
          details: [file, ...providers.map((p) => `provider ${p}`)],
        };
      return { status: 'unauthenticated', details: [file] };
    }
  } catch {
    return { status: 'unknown', method: 'config_file', details: [file] };
  }
  // Providers may also be configured with keys inside opencode.json (`provider.<id>.options.apiKey`).
  return { status: 'unknown', details: [file] };
}

/** OpenCode's auth: `OPENCODE_API_KEY`, provider keys, then `auth.json` in its data dir. */
export function detectOpenCodeAuth(env: Readonly<Record<string, string | undefined>>): AuthStatus {
  return detectOpenCodeStyleAuth('opencode', ['OPENCODE_API_KEY'], env);
}

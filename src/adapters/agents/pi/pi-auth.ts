import { existsSync, readFileSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import type { AuthStatus } from '../../../core/adapter/index.ts';
import { apiKeyAuth } from '../../shared/api-key-auth.ts';

/** Provider key variables pi reads (`pi --help`, "Environment Variables"); omp reads the same and more. */
export const PI_KEY_ENV = [
  'ANTHROPIC_API_KEY',
  'ANTHROPIC_OAUTH_TOKEN',
  'OPENAI_API_KEY',
  'AZURE_OPENAI_API_KEY',
  'DEEPSEEK_API_KEY',
  'GEMINI_API_KEY',
  'GROQ_API_KEY',
  'CEREBRAS_API_KEY',
  'XAI_API_KEY',
  'FIREWORKS_API_KEY',
  'OPENROUTER_API_KEY',
  'AI_GATEWAY_API_KEY',
  'ZAI_API_KEY',
  'MISTRAL_API_KEY',
  'MINIMAX_API_KEY',
  'MOONSHOT_API_KEY',
  'OPENCODE_API_KEY',
  'KIMI_API_KEY',
  'CLOUDFLARE_API_KEY',
  'XIAOMI_API_KEY',
  'AWS_BEARER_TOKEN_BEDROCK',
  'AWS_SECRET_ACCESS_KEY',
] as const;

export interface AuthLookup {
  /** The agent directory (`~/.pi/agent`, `~/.omp/agent`). */
  agentDir: string;
  keyEnv: readonly string[];
  /** Custom-provider config files in the agent directory (`models.json`, `models.yml`). */
  modelFiles: readonly string[];
  /** JSON credential store in the agent directory (pi: `auth.json`). */
  authFile?: string;
  /** A credential store that cannot be read cheaply (omp: the SQLite `agent.db`): its presence gives `unknown`. */
  opaqueStore?: string;
}

/**
 * Read-only and local: a provider key in the environment, stored credentials in `auth.json`
 * (written by `/login`: API keys and OAuth tokens), or custom providers in the models file.
 */
export function detectPiStyleAuth(lookup: AuthLookup, env: Readonly<Record<string, string | undefined>>): AuthStatus {
  const fromEnv = apiKeyAuth(lookup.keyEnv, env);
  if (fromEnv) return fromEnv;
  const auth = join(lookup.agentDir, lookup.authFile ?? 'auth.json');
  try {
    if (!lookup.authFile) throw new Error('no JSON credential store');
    const stored = JSON.parse(readFileSync(auth, 'utf8')) as Record<string, { type?: string } | undefined>;
    const entries = Object.values(stored ?? {}).filter(Boolean);
    if (entries.length > 0) {
      const method = entries.some((e) => e?.type === 'oauth') ? 'oauth' : 'api_key';
      return { status: 'authenticated', method, details: [auth] };
    }
  } catch {}
  for (const name of lookup.modelFiles) {
    const file = join(lookup.agentDir, name);
    try {
      if (existsSync(file) && statSync(file).size > 0 && /apiKey/.test(readFileSync(file, 'utf8'))) {
        return { status: 'authenticated', method: 'config_file', details: [file] };
      }
    } catch {}
  }
  if (lookup.opaqueStore) {
    const store = join(lookup.agentDir, lookup.opaqueStore);
    if (existsSync(store)) return { status: 'unknown', method: 'credential_store', details: [store] };
  }
  return {
    status: 'unauthenticated',
    details: [...lookup.keyEnv.slice(0, 3), lookup.authFile ? auth : lookup.agentDir],
  };
}

/** `~/.pi/agent`, or `PI_CODING_AGENT_DIR` when set. */
export function piAgentDir(env: Readonly<Record<string, string | undefined>>): string {
  return env.PI_CODING_AGENT_DIR || join(env.HOME || homedir(), '.pi', 'agent');
}

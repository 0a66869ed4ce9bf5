import type { AuthStatus } from '../../core/adapter/index.ts';
import type { AdapterEnv } from './define-cli-adapter.ts';

/**
 * The first step of most auth checks: `authenticated` by `api_key` when any of `names` is set to a
 * non-blank value (all those set, in order, as details), else undefined so the check goes on.
 */
export function apiKeyAuth(names: readonly string[], env: AdapterEnv): AuthStatus | undefined {
  const keys = names.filter((name) => (env[name] ?? '').trim() !== '');
  return keys.length > 0 ? { status: 'authenticated', method: 'api_key', details: keys } : undefined;
}

import type { AdapterEnv } from './define-cli-adapter.ts';

/** The first of `names` set to a non-blank value: the credential an agent would use, by its precedence. */
export function firstSetEnv(names: readonly string[], env: AdapterEnv): string | undefined {
  return names.find((name) => (env[name] ?? '').trim() !== '');
}

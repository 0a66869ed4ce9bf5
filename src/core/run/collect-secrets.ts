import type { RunOptions } from './run-options.ts';

/** The secret values a run must never show: configured values and the values of secret env vars. */
export function collectSecrets(options: RunOptions, env: Readonly<Record<string, string | undefined>>): string[] {
  const names = new Set([...(options.adapter.secretEnv ?? []), ...(options.secretEnv ?? [])]);
  const values = [...(options.secrets ?? [])];
  for (const name of names) {
    const value = env[name] ?? options.request.env?.[name];
    if (value) values.push(value);
  }
  return values;
}

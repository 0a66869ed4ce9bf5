import { Redactor } from '../../core/redact/redactor.ts';
import type { ExecuteRunOptions } from './execute-run-options.ts';

/** A run's secrets and the one redactor built from them. */
export interface RunSecrets {
  /** What no text the run writes may hold: the given secrets, the git token, the values of the secret variables. */
  values: readonly string[];
  /** Redacts `values` from every text the run writes to GitHub, its log and its notes. */
  redactor: Redactor;
}

/** Collects a run's secrets once, for every part of the run that must keep them out of what it writes. */
export function runSecrets(
  options: Pick<ExecuteRunOptions, 'secrets' | 'git' | 'secretEnv' | 'env' | 'redactor'>,
): RunSecrets {
  const values = [
    options.git.token,
    ...options.secrets,
    ...(options.secretEnv ?? []).map((name) => options.env[name]),
  ].filter((value): value is string => value !== undefined && value !== '');
  const redactor = options.redactor ?? new Redactor();
  redactor.addSecrets(values);
  return { values: [...new Set(values)], redactor };
}

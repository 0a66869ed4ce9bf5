import type { CreateCheckRun, UpdateCheckRun } from '../github/github-api.ts';
import type { MemoryCheckRun } from './memory-github-state.ts';

/** GitHub's limits on a check run request: characters per output field, annotations and actions per request. */
export const checkRunLimits = { textLength: 65535, annotationsPerRequest: 50, actions: 3 };

/** Why GitHub would refuse this create or update (422), or undefined when it accepts it. */
export function checkRunRefusal(
  input: CreateCheckRun | UpdateCheckRun,
  current: MemoryCheckRun | undefined,
): string | undefined {
  for (const field of ['summary', 'text'] as const) {
    const value = input.output?.[field];
    if (value !== undefined && [...value].length > checkRunLimits.textLength) {
      return `Invalid request: output.${field} is too long (maximum is 65535 characters)`;
    }
  }
  if ((input.output?.annotations?.length ?? 0) > checkRunLimits.annotationsPerRequest) {
    return 'Invalid request: only 50 annotations are allowed per request.';
  }
  if ((input.actions?.length ?? 0) > checkRunLimits.actions) return 'Invalid request: only 3 actions are allowed.';
  const completing = input.status === 'completed' || input.completedAt !== undefined;
  if (completing && input.conclusion === undefined && current?.conclusion === undefined) {
    return 'Invalid request: "conclusion" wasn\'t supplied.';
  }
  return undefined;
}

/**
 * Applies a create or update as GitHub does: title, summary and text replaced when given, annotations
 * accumulated, a conclusion completes the run, a completed run gets a completion time.
 */
export function applyCheckRun(run: MemoryCheckRun, input: CreateCheckRun | UpdateCheckRun, now: string): void {
  const output = input.output;
  if (output !== undefined) {
    run.output.title = output.title;
    run.output.summary = output.summary;
    if (output.text !== undefined) run.output.text = output.text;
    run.annotations.push(...(output.annotations ?? []));
  }
  if (input.actions !== undefined) run.actions = input.actions;
  if (input.status !== undefined) run.status = input.status;
  if (input.conclusion !== undefined) {
    run.conclusion = input.conclusion;
    run.status = 'completed';
  }
  if (input.completedAt !== undefined) run.completedAt = input.completedAt;
  if (run.status === 'completed') run.completedAt ??= now;
}

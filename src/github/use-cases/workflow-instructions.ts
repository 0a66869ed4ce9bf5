/**
 * The part of a run's prompt that carries the workflow's own instructions (the Action's
 * `instructions` input): after the request and its context, marked as the repository's, so that
 * the agent weighs them above the thread's text. Empty when there are none. Pure.
 */
export function workflowInstructions(instructions: string | undefined): string {
  const text = instructions?.trim();
  if (!text) return '';
  return `\n\nInstructions from this repository's workflow (they apply to every run):\n${text}\n`;
}

import * as core from '@actions/core';
import type { ActionConclusion } from '../github/report/run-lifecycle.ts';
import type { RunOutcome } from '../github/use-cases/execute-run.ts';

/** Every output the Action sets; `action.yml` declares exactly these (a test checks it). */
export const ACTION_OUTPUTS = [
  'conclusion',
  'session-id',
  'branch',
  'pull-request-url',
  'cost-usd',
  'input-tokens',
  'output-tokens',
  'approvals',
  'final-message',
] as const;
export type ActionOutput = (typeof ACTION_OUTPUTS)[number];

/** The outputs of a finished run. `conclusion` is also set (to `skipped`, …) when no run happened. */
export function actionOutputs(outcome: RunOutcome): Record<ActionOutput, string> {
  const totals = outcome.end?.totals;
  return {
    conclusion: outcome.conclusion satisfies ActionConclusion,
    'session-id': outcome.end?.sessionId ?? '',
    branch: outcome.branch ?? '',
    'pull-request-url': outcome.pullRequestUrl ?? '',
    'cost-usd': (totals?.usd ?? outcome.progress.usd ?? 0).toFixed(4),
    'input-tokens': String(totals?.inputTokens ?? outcome.progress.inputTokens),
    'output-tokens': String(totals?.outputTokens ?? outcome.progress.outputTokens),
    approvals: JSON.stringify(outcome.approvals),
    'final-message': outcome.finalMessage ?? '',
  };
}

/** Sets the `conclusion` output when no run happened (`skipped`) or it could not start (`failure`). */
export function setConclusion(conclusion: ActionConclusion): void {
  core.setOutput('conclusion' satisfies ActionOutput, conclusion);
}

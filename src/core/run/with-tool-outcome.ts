import type { ToolHost } from '../tools/tool-host.ts';
import type { AttemptResult } from './attempt-result.ts';

/** `mark_complete` / `mark_failed` through the tool host decide an otherwise completed attempt. */
export function withToolOutcome(result: AttemptResult, tools: ToolHost | undefined): AttemptResult {
  const recorded = tools?.outcome;
  if (result.reason !== 'completed' || !recorded) return result;
  return recorded.status === 'failed'
    ? {
        ...result,
        reason: 'failed',
        message: recorded.details ? `${recorded.reason}: ${recorded.details}` : recorded.reason,
      }
    : { ...result, output: result.output ?? recorded.output };
}

import * as core from '@actions/core';
import type { ActedTrigger } from '../../github/use-cases/act-on-trigger.ts';
import { setConclusion } from '../action-outputs.ts';
import { cancelWorkflowRuns } from '../cancel-workflow-runs.ts';
import { unknownAgentMessage } from '../unknown-agent-message.ts';
import type { ActionContext } from './action-context.ts';

/**
 * Ends the step for a decision that starts no run: nothing to do (skipped), a refusal (an
 * unknown agent fails red with a did-you-mean), an invalid config (red, with the error), an
 * answer to an approval (the asking job reads it), `@agent cancel` (the runs cancelled).
 */
export async function concludeWithoutRun(
  ctx: ActionContext,
  decision: Exclude<ActedTrigger, { kind: 'run' }>,
): Promise<void> {
  switch (decision.kind) {
    case 'refused':
      if (decision.unknownAgent) {
        const { name, known } = decision.unknownAgent;
        const named = name === ctx.inputs.agent ? 'input agent: ' : '';
        setConclusion('failure');
        core.setFailed(`${named}${unknownAgentMessage(name, known)}`);
        return;
      }
      core.info(`agent-mux: nothing to do (${decision.reason})`);
      setConclusion('skipped');
      return;
    case 'ignore':
      core.info(`agent-mux: nothing to do (${decision.reason})`);
      setConclusion('skipped');
      return;
    case 'answer':
      core.info('agent-mux: an answer to an approval; the job that asked reads it from the comments');
      setConclusion('skipped');
      return;
    case 'config_error':
      setConclusion('failure');
      core.setFailed(`the repository config is invalid:\n${decision.message}`);
      return;
    case 'cancel': {
      const cancelled =
        decision.number === undefined
          ? []
          : await cancelWorkflowRuns({
              api: ctx.api,
              repo: decision.repo,
              number: decision.number,
              currentRunId: Number(ctx.env.GITHUB_RUN_ID) || undefined,
              selfLogins: ctx.deps.selfLogins,
              log: (line) => core.info(line),
            });
      core.info(cancelled.length ? `cancelled workflow runs ${cancelled.join(', ')}` : 'no agent-mux run in flight');
      setConclusion('cancelled');
      return;
    }
    default: {
      const never: never = decision;
      throw new Error(`unhandled decision ${JSON.stringify(never)}`);
    }
  }
}

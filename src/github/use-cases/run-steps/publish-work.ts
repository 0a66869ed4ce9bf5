import { type PublishedResult, publishResult } from '../publish-result.ts';
import type { RunContext } from './plan-run.ts';
import type { PreparedAgent } from './prepare-agent.ts';
import type { RunTarget } from './run-target.ts';

/**
 * Commits and pushes what the agent changed in the checkout (`publishResult`): to the pull
 * request's branch, the conversation's, or a new one with a pull request. The files agent-mux
 * restored or removed for the run are not the agent's changes.
 */
export function publishWork(
  ctx: RunContext,
  target: RunTarget,
  agent: PreparedAgent,
  unfinished?: string,
): Promise<PublishedResult> {
  const { options } = ctx;
  return publishResult({
    api: ctx.api,
    job: ctx.job,
    pull: target.pull,
    cwd: options.workspace,
    git: options.git,
    ignore: [...agent.prepared.restored, ...agent.prepared.removed],
    secrets: ctx.secrets.values,
    runId: ctx.runId,
    ...(target.branch ? { branch: target.branch.name } : {}),
    ...(options.afterPush ? { afterPush: options.afterPush } : {}),
    ...(unfinished === undefined ? {} : { unfinished }),
  });
}

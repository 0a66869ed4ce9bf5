import * as core from '@actions/core';
import { errorText } from '../../core/errors/error-text.ts';
import { createApprovalPoller } from '../../github/approvals/approval-poller.ts';
import { systemClock } from '../../github/pacing/clock.ts';
import { executeRun, type RunOutcome } from '../../github/use-cases/execute-run.ts';
import type { RunJob } from '../../github/use-cases/run-job.ts';
import { STATE } from '../action-state.ts';
import { actionsCacheAvailable, createActionsCacheConversationStore } from '../conversation-cache-store.ts';
import { RUN_MARKER_ENV } from '../stop-leftover-agents.ts';
import { createWorkflowLog } from '../workflow-log.ts';
import type { ActionContext } from './action-context.ts';
import type { ActionRunSetup } from './action-run-setup.ts';
import type { AgentProgramStep } from './agent-program-step.ts';

const AUTHOR = { name: 'github-actions[bot]', email: '41898282+github-actions[bot]@users.noreply.github.com' };

/**
 * Runs the job through the shared `executeRun`: the job log follows the run, the workflow run's
 * cancellation (SIGINT, SIGTERM) stops the agent, approvals are polled from the thread, a
 * follow-up resumes the session kept in the Actions cache, and the post step learns the check
 * run and comment to conclude should this step be killed.
 */
export async function executeActionRun(
  ctx: ActionContext,
  job: RunJob,
  setup: ActionRunSetup,
  program: AgentProgramStep,
): Promise<RunOutcome> {
  const { env, inputs, api, deps } = ctx;
  const workflowLog = createWorkflowLog(core, (text) => setup.redactor.redactString(text));
  const abort = new AbortController();
  const onSignal = (signal: NodeJS.Signals) => {
    core.warning(`${signal}: the workflow run is being cancelled; stopping the agent`);
    abort.abort(`the workflow run was cancelled (${signal})`);
  };
  process.on('SIGTERM', onSignal);
  process.on('SIGINT', onSignal);
  try {
    return await executeRun({
      deps,
      job,
      registry: ctx.registry,
      workspace: env.GITHUB_WORKSPACE ?? process.cwd(),
      git: { token: inputs.githubToken, author: AUTHOR },
      env: setup.agentEnv,
      prepare: program.prepare,
      onEvent: (event) => workflowLog.onEvent(event),
      onNote: (line) => workflowLog.note(line),
      // A follow-up mention resumes the agent's session, kept in the Actions cache between runs.
      ...(env.RUNNER_TEMP && actionsCacheAvailable() && sharesDefaultBranchCache(env.GITHUB_EVENT_NAME)
        ? {
            conversations: {
              store: createActionsCacheConversationStore({ stagingDir: `${env.RUNNER_TEMP}/agent-mux-conversation` }),
            },
          }
        : {}),
      // Requests that the workflow's concurrency group dropped (it keeps one pending run) are taken up.
      catchUp: {
        phrase: inputs.triggerPhrase ?? job.config.trigger.phrase,
        allowedBots: inputs.allowedBots ?? job.config.trigger.allowedBots,
      },
      secrets: setup.secrets,
      redactor: setup.redactor,
      secretEnv: Object.keys(inputs.apiKeys),
      isolateEnv: { extra: [RUN_MARKER_ENV, ...inputs.agentEnv] },
      ...(inputs.model ? { model: inputs.model } : {}),
      ...(inputs.instructions ? { instructions: inputs.instructions } : {}),
      fence: setup.fence,
      signal: abort.signal,
      // The runner sends SIGINT, then SIGTERM 7.5 s later, then SIGKILL 2.5 s after that.
      graceMs: 2000,
      runId: setup.runId,
      detailsUrl: workflowRunUrl(env),
      timeoutMs: inputs.timeoutMs,
      approvalTimeoutMs: inputs.approvalTimeoutMs,
      onStarted: (started) => {
        core.saveState(STATE.checkRunId, String(started.checkRunId));
        if (started.commentId !== undefined) core.saveState(STATE.commentId, String(started.commentId));
      },
      attachApprovals: (channel, run) => {
        const poller = createApprovalPoller({
          // The thread is read for the whole run: a mention in it goes to the running agent.
          ...(run.steering ? { steering: run.steering } : {}),
          api,
          repo: job.repo,
          number: job.number ?? 0,
          isPullRequest: job.isPullRequest,
          channel,
          phrase: inputs.triggerPhrase ?? job.config.trigger.phrase,
          agents: Object.keys(job.config.agents),
          selfLogins: deps.selfLogins,
          since: job.requestedAt,
          intervalMs: inputs.pollIntervalMs,
          clock: systemClock,
          onError: (error) => core.warning(`approval polling: ${errorText(error)}`),
        });
        poller.start();
        return () => poller.stop();
      },
    });
  } finally {
    workflowLog.close();
    process.off('SIGTERM', onSignal);
    process.off('SIGINT', onSignal);
  }
}

/**
 * Whether the run's Actions-cache scope is the default branch's, which only the repository's own
 * workflows write. `pull_request`, `pull_request_review` and `pull_request_review_comment` runs
 * read the pull request's merge-ref scope, which the pull request's own CI writes (its author
 * controls it): a conversation restored there could be planted, so those runs keep none (the agent
 * gets a summary of the earlier turns instead).
 */
export function sharesDefaultBranchCache(eventName: string | undefined): boolean {
  return !(eventName ?? '').startsWith('pull_request') || eventName === 'pull_request_target';
}

function workflowRunUrl(env: NodeJS.ProcessEnv): string | undefined {
  if (!env.GITHUB_RUN_ID || !env.GITHUB_REPOSITORY) return undefined;
  return `${env.GITHUB_SERVER_URL ?? 'https://github.com'}/${env.GITHUB_REPOSITORY}/actions/runs/${env.GITHUB_RUN_ID}`;
}

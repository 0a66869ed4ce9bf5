import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as core from '@actions/core';
import { execa } from 'execa';
import { createBuiltinRegistry } from '../adapters/builtin-registry.ts';
import { looksSecret } from '../core/env/agent-environment.ts';
import { AgentMuxError } from '../core/errors/agent-mux-error.ts';
import { Redactor } from '../core/redact/redactor.ts';
import { findOnPath } from '../core/runtime/find-on-path.ts';
import { probeFence } from '../core/sandbox/index.ts';
import { createApprovalPoller } from '../github/approvals/approval-poller.ts';
import { REPO_CONFIG_PATH } from '../github/config/load-repo-config.ts';
import { createGitHubApi } from '../github/create-github-api.ts';
import { createOctokit } from '../github/create-octokit.ts';
import { systemClock } from '../github/report/clock.ts';
import { looksLikeRequest } from '../github/trigger/looks-like-request.ts';
import { defaultTriggerPhrase } from '../github/trigger/parse-command.ts';
import { readTriggerEvent } from '../github/trigger/read-trigger-event.ts';
import { decideTrigger, type GitHubDeps } from '../github/use-cases/decide-trigger.ts';
import { executeRun, type RunOutcome } from '../github/use-cases/execute-run.ts';
import { resolveAgentAdapter } from '../github/use-cases/resolve-agent-adapter.ts';
import { type ActionInputs, readActionInputs } from './action-inputs.ts';
import { actionOutputs, setConclusion } from './action-outputs.ts';
import { actionRoot } from './action-root.ts';
import { STATE } from './action-state.ts';
import { actionRunId, cancelWorkflowRuns } from './cancel-workflow-runs.ts';
import { changedFileAnnotations } from './changed-file-annotations.ts';
import { actionsCacheAvailable, createActionsCacheConversationStore } from './conversation-cache-store.ts';
import { forkReviewNotice } from './fork-review-event.ts';
import { ensureAgentProgram } from './install-agent.ts';
import { renderJobSummary } from './job-summary.ts';
import { decideRunnerFence, findRunnerRoot } from './runner-fence.ts';
import { agentMarker, RUN_MARKER_ENV } from './stop-leftover-agents.ts';
import { unknownAgentMessage } from './unknown-agent-message.ts';
import { createWorkflowLog } from './workflow-log.ts';

/** agent-mux's own code: the directory above `dist/` (its checkout under the runner's `_actions`). */
const ACTION_ROOT = actionRoot(import.meta.url);

const AUTHOR = { name: 'github-actions[bot]', email: '41898282+github-actions[bot]@users.noreply.github.com' };

/**
 * The Action's main step: reads the event the runner saved, decides what it asks for, and runs
 * the agent through the shared GitHub use cases. Every failure ends in `core.setFailed`.
 */
export async function run(env: NodeJS.ProcessEnv = process.env): Promise<void> {
  try {
    await main(env);
  } catch (error) {
    setConclusion('failure');
    core.setFailed(error instanceof Error ? error.message : `agent-mux failed: ${String(error)}`);
  }
}

async function main(env: NodeJS.ProcessEnv): Promise<void> {
  const inputs = readActionInputs((name) => core.getInput(name));
  core.setSecret(inputs.githubToken);
  for (const key of Object.values(inputs.apiKeys)) core.setSecret(key);

  const eventName = required(env, 'GITHUB_EVENT_NAME');
  const payload: unknown = JSON.parse(await readFile(required(env, 'GITHUB_EVENT_PATH'), 'utf8'));
  const api = createGitHubApi(
    createOctokit({
      token: inputs.githubToken,
      baseUrl: env.GITHUB_API_URL ?? 'https://api.github.com',
      userAgent: 'agent-mux-action',
      log: (line) => core.info(line),
    }),
  );
  // A fork's review: the token is read-only and there are no secrets. Say so where the user looks; start nothing.
  const forkNotice = forkReviewNotice(eventName, payload, inputs.triggerPhrase ?? defaultTriggerPhrase);
  if (forkNotice !== undefined) {
    core.warning(`agent-mux: ${forkNotice}`);
    if (env.GITHUB_STEP_SUMMARY) await core.summary.addHeading('agent-mux did not run', 3).addRaw(forkNotice).write();
    setConclusion('skipped');
    return;
  }
  // The fence is set up (bubblewrap found, probed, lifted from AppArmor's restriction) while the
  // event is decided, when it looks like a request: the agent waits for both.
  const fenceDecision = () =>
    decideRunnerFence(env, inputs.fence, {
      findBwrap: () => findOnPath('bwrap', env.PATH),
      probe: (fence) => probeFence(fence, env.RUNNER_TEMP || tmpdir()),
      sudo: runSudo,
      log: (line) => core.info(line),
      actionRoot: ACTION_ROOT,
      runnerRoot: findRunnerRoot(),
    });
  const fenceAhead = eventLooksLikeRequest(eventName, payload, inputs.triggerPhrase) ? fenceDecision() : undefined;
  fenceAhead?.catch(() => {}); // awaited once the event asks for a run
  const registry = createBuiltinRegistry();
  const deps: GitHubDeps = {
    api,
    selfLogins: [inputs.botLogin],
    builtinAgents: registry.ids(),
    log: (line) => core.info(line),
  };
  const decision = await decideTrigger(
    deps,
    { eventName, payload, deliveryId: env.GITHUB_RUN_ID },
    {
      phrase: inputs.triggerPhrase,
      agent: inputs.agent,
      allowedBots: inputs.allowedBots,
      configPath: inputs.configPath === REPO_CONFIG_PATH ? undefined : inputs.configPath,
      prompt: inputs.prompt,
    },
    { acknowledgeInBackground: true },
  );

  switch (decision.kind) {
    case 'refused':
      if (decision.unknownAgent) {
        const { name, known } = decision.unknownAgent;
        const named = name === inputs.agent ? 'input agent: ' : '';
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
              api,
              repo: decision.repo,
              number: decision.number,
              currentRunId: Number(env.GITHUB_RUN_ID) || undefined,
              selfLogins: deps.selfLogins,
              log: (line) => core.info(line),
            });
      core.info(cancelled.length ? `cancelled workflow runs ${cancelled.join(', ')}` : 'no agent-mux run in flight');
      setConclusion('cancelled');
      return;
    }
    case 'run':
      break;
  }

  const job = decision.job;
  core.info(`agent-mux: running ${job.agentName}${job.number === undefined ? '' : ` on #${job.number}`}`);
  // The host side of the agent's environment: the run builds the agent's own from an allowlist
  // (isolateEnv below): its adapter's key and vendor variables, never the token or other keys.
  const agentEnv: Record<string, string | undefined> = { ...env, ...inputs.apiKeys };
  const decided = await (fenceAhead ?? fenceDecision());
  if (decided.kind === 'off') core.warning(decided.warning);
  if (decided.kind === 'fenced') for (const note of decided.notes) core.info(`agent-mux: ${note}`);
  const fence = decided.kind === 'fenced' ? decided.fence : undefined;
  // Variables given with agent-env whose names say they are secret (AWS_SECRET_ACCESS_KEY, …) are redacted too.
  const passedSecrets = inputs.agentEnv
    .filter((name) => looksSecret(name) && env[name])
    .map((name) => env[name] as string);
  for (const value of passedSecrets) core.setSecret(value);
  const secrets = [inputs.githubToken, ...Object.values(inputs.apiKeys), ...passedSecrets];
  const redactor = new Redactor(secrets);
  const workflowLog = createWorkflowLog(core, (text) => redactor.redactString(text));
  let installMs: number | undefined;
  // Runs inside executeRun, alongside the check-run and comment writes: a failure is the run's failure.
  const prepare = async (signal: AbortSignal) => {
    // Fail closed: without a working fence (and no `fence: off`) the agent does not start.
    if (decided.kind === 'refused') throw new AgentMuxError('fence_unavailable', decided.reason);
    const resolved = resolveAgentAdapter({
      registry,
      agentName: job.agentName,
      config: job.config,
      file: REPO_CONFIG_PATH,
    });
    const installed = await ensureAgentProgram({
      program: resolved.adapter.program,
      version: inputs.agentVersion,
      toolCacheDir: env.RUNNER_TOOL_CACHE || tmpdir(),
      env: agentEnv,
      log: (line) => core.info(line),
      signal,
    });
    if (installed.source === 'installed') {
      installMs = installed.ms;
      core.info(`agent program ready in ${(installed.ms / 1000).toFixed(1)} s`);
    }
    return {
      ...(installed.binDir ? { env: { PATH: `${installed.binDir}:${agentEnv.PATH ?? ''}` } } : {}),
      ...(installed.version === undefined ? {} : { programVersion: installed.version }),
    };
  };

  const runId = actionRunId(env.GITHUB_RUN_ID ?? `${Date.now()}`, env.GITHUB_RUN_ATTEMPT ?? '1');
  const marker = agentMarker(runId, env.GITHUB_JOB, randomUUID());
  agentEnv[RUN_MARKER_ENV] = marker;
  core.saveState(STATE.runId, runId);
  core.saveState(STATE.agentMarker, marker);

  const abort = new AbortController();
  const onSignal = (signal: NodeJS.Signals) => {
    core.warning(`${signal}: the workflow run is being cancelled; stopping the agent`);
    abort.abort(`the workflow run was cancelled (${signal})`);
  };
  process.on('SIGTERM', onSignal);
  process.on('SIGINT', onSignal);

  let outcome: RunOutcome;
  try {
    outcome = await executeRun({
      deps,
      job,
      registry,
      workspace: env.GITHUB_WORKSPACE ?? process.cwd(),
      git: { token: inputs.githubToken, author: AUTHOR },
      env: agentEnv,
      prepare,
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
      secrets,
      redactor,
      secretEnv: Object.keys(inputs.apiKeys),
      isolateEnv: { extra: [RUN_MARKER_ENV, ...inputs.agentEnv] },
      ...(inputs.model ? { model: inputs.model } : {}),
      ...(inputs.instructions ? { instructions: inputs.instructions } : {}),
      fence,
      signal: abort.signal,
      // The runner sends SIGINT, then SIGTERM 7.5 s later, then SIGKILL 2.5 s after that.
      graceMs: 2000,
      runId,
      detailsUrl: workflowRunUrl(env),
      timeoutMs: inputs.timeoutMs,
      approvalTimeoutMs: inputs.approvalTimeoutMs,
      onStarted: (started) => {
        core.saveState(STATE.checkRunId, String(started.checkRunId));
        if (started.commentId !== undefined) core.saveState(STATE.commentId, String(started.commentId));
      },
      attachApprovals: (channel) => {
        const poller = createApprovalPoller({
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
          onError: (error) =>
            core.warning(`approval polling: ${error instanceof Error ? error.message : String(error)}`),
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
  core.saveState(STATE.done, 'true');

  for (const [name, value] of Object.entries(actionOutputs(outcome))) core.setOutput(name, value);
  for (const notice of changedFileAnnotations([...outcome.changedFiles]))
    core.notice(notice.message, notice.properties);
  await core.summary
    .addRaw(
      // The summary shows what the agent said and did: the same redaction as everything else it publishes.
      redactor.redactString(
        renderJobSummary({
          outcome,
          agent: job.agentName,
          installMs,
          trigger: {
            event: eventName,
            actor: job.actor.login,
            repository: `${job.repo.owner}/${job.repo.repo}`,
            number: job.number,
          },
        }),
      ),
    )
    .write();
  if (outcome.conclusion !== 'success') {
    core.setFailed(`the agent run ended ${outcome.conclusion}${outcome.reason ? `: ${outcome.reason}` : ''}`);
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

/** `sudo -n …` (the runner's passwordless sudo on GitHub-hosted runners); never throws. */
async function runSudo(args: readonly string[]): Promise<{ ok: boolean; output: string }> {
  const result = await execa('sudo', ['-n', ...args], { reject: false, all: true, timeout: 180_000, stdin: 'ignore' });
  return { ok: result.exitCode === 0, output: String(result.all ?? result.message ?? '') };
}

function required(env: NodeJS.ProcessEnv, name: string): string {
  const value = env[name];
  if (!value) throw new Error(`${name} is not set: agent-mux runs as a step of a GitHub Actions job`);
  return value;
}

function workflowRunUrl(env: NodeJS.ProcessEnv): string | undefined {
  if (!env.GITHUB_RUN_ID || !env.GITHUB_REPOSITORY) return undefined;
  return `${env.GITHUB_SERVER_URL ?? 'https://github.com'}/${env.GITHUB_REPOSITORY}/actions/runs/${env.GITHUB_RUN_ID}`;
}

export type { ActionInputs };

/** Whether the saved event looks like a request for a run (`looksLikeRequest`); false when it cannot be read. */
function eventLooksLikeRequest(eventName: string, payload: unknown, phrase: string | undefined): boolean {
  try {
    const event = readTriggerEvent(eventName, payload);
    return event !== undefined && looksLikeRequest(event, phrase ?? defaultTriggerPhrase);
  } catch {
    return false; // decideTrigger says why
  }
}

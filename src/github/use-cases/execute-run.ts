import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { resolve, sep } from 'node:path';
import type { Adapter } from '../../core/adapter/index.ts';
import { agentEnvironment } from '../../core/env/agent-environment.ts';
import type { AgentEvent } from '../../core/events/index.ts';
import type { RunEnd } from '../../core/run/run-options.ts';
import { startRun } from '../../core/run/start-run.ts';
import { autoApprovalChannel } from '../../core/tools/auto-approval-channel.ts';
import { type BuiltinToolOptions, builtinTools } from '../../core/tools/builtin-tools.ts';
import { createToolHost } from '../../core/tools/create-tool-host.ts';
import { policyForAgent } from '../../core/tools/policy-for-agent.ts';
import { createGitHubApprovalChannel } from '../approvals/github-approval-channel.ts';
import { commentsReadOnce } from '../comments-read-once.ts';
import { REPO_CONFIG_PATH } from '../config/load-repo-config.ts';
import { conversationSummary } from '../conversation/conversation-summary.ts';
import { catchUpMentions, missedMentionsPrompt, takenUpComments } from '../conversation/missed-mentions.ts';
import { planTurnSafely, resumeTurn, sessionLocation, turnRecordOf } from '../conversation/run-turn.ts';
import { prepareWorkspace } from '../git/prepare-workspace.ts';
import type { GitHubApi, PullInfo } from '../github-api.ts';
import { redactingApi } from '../redacting-api.ts';
import { unseenChangesReason } from '../report/claimed-changes.ts';
import { FinalMessage } from '../report/final-message.ts';
import { changedNothingReason } from '../report/refused-changes.ts';
import { renderAnnotations } from '../report/render-check-run.ts';
import { conclusionOf } from '../report/run-lifecycle.ts';
import type { ApprovalEntry } from '../report/run-progress.ts';
import { answerInReviewThread } from './answer-in-review-thread.ts';
import { createBufferedReporter } from './buffered-reporter.ts';
import { commitsSince } from './commits-since.ts';
import { conversationBranch, conversationPull } from './conversation-pull.ts';
import { earlierAttemptCommit } from './earlier-attempt-commit.ts';
import { errorText } from './error-text.ts';
import type { ExecuteRunOptions, RunOutcome } from './execute-run-options.ts';
import { humanDuration } from './human-duration.ts';
import { publishResult, pullRequestFor } from './publish-result.ts';
import { pullNumberOf } from './pull-number-of.ts';
import { resolveAgentAdapter } from './resolve-agent-adapter.ts';
import { runPolicy } from './run-policy.ts';
import { type RunSecrets, runSecrets } from './run-secrets.ts';
import { startReporting } from './start-reporting.ts';
import { UNATTENDED_NOTE, UNATTENDED_REASON } from './unattended-run.ts';
import { workflowInstructions } from './workflow-instructions.ts';

export type { ExecuteRunOptions, RunOutcome } from './execute-run-options.ts';

/**
 * Carries out one accepted job: check run and tracking comment, the workspace on the right
 * commit with planted agent config restored, the agent run with approvals on GitHub and live
 * reporting, then the branch, the pull request and the final reports. The writes to GitHub go on
 * while the workspace (and the front end's `prepare`) get ready, and the agent starts as soon as
 * those are: what it says before the check run exists is buffered and reported once it does.
 * Never leaves the check run in progress: whatever fails after it could be made, it is concluded.
 */
export async function executeRun(options: ExecuteRunOptions): Promise<RunOutcome> {
  // A request made in a review comment is answered in its thread (`answerInReviewThread`).
  const finalMessage = new FinalMessage();
  const onEvent = (event: AgentEvent) => {
    finalMessage.apply(event);
    options.onEvent?.(event);
  };
  const secrets = runSecrets(options);
  const answer = () => {
    const text = finalMessage.text;
    return text === undefined ? undefined : secrets.redactor.redactString(text);
  };
  const outcome = await runAndReport({ ...options, onEvent }, secrets, { finalMessage, answer });
  const said = answer();
  if (said !== undefined) outcome.finalMessage = said;
  await answerInReviewThread({
    api: redactingApi(options.deps.api, secrets.redactor),
    job: options.job,
    outcome,
    workspace: options.workspace,
    finalMessage: finalMessage.text,
    log: options.deps.log,
  });
  return outcome;
}

async function runAndReport(
  options: ExecuteRunOptions,
  secrets: RunSecrets,
  message: { finalMessage: FinalMessage; answer: () => string | undefined },
): Promise<RunOutcome> {
  const { finalMessage, answer } = message;
  const { deps } = options;
  const runId = options.runId ?? `run_${randomUUID()}`;
  const { redactor } = secrets;
  const api = redactingApi(deps.api, redactor);
  const log = (line: string) => deps.log?.(redactor.redactString(line));
  const repo = options.job.repo;
  // The run's place in its conversation: the turn, the agent (the last turn's unless named), the PR.
  // The plan and the missed mentions read the same thread's comments, at the same moment: once.
  const planning = commentsReadOnce(api);
  const { plan, ownPull } = await planTurnSafely({
    api: planning,
    job: options.job,
    selfLogins: deps.selfLogins,
    builtinAgents: deps.builtinAgents,
    log,
  });
  const job = plan.agentName === options.job.agentName ? options.job : { ...options.job, agentName: plan.agentName };
  const missed = options.catchUp
    ? await catchUpMentions(options.catchUp, {
        api: planning,
        job,
        plan,
        selfLogins: deps.selfLogins,
        builtinAgents: deps.builtinAgents,
        log,
      })
    : [];
  const comments = takenUpComments(job, missed);
  const baseRecord = {
    conversation: plan.conversation,
    turn: plan.turn,
    job: job.id,
    agent: job.agentName,
    at: new Date().toISOString(),
    instruction: job.instruction,
    ...(comments.length > 0 ? { comments } : {}),
  };
  const tracking =
    job.number === undefined
      ? undefined
      : {
          turn: plan.turn,
          earlier: plan.earlier.map((t) => ({ turn: t.record.turn, url: t.url })),
          ...(plan.freshReason ? { freshReason: plan.freshReason } : {}),
          ...(missed.length > 0 ? { alsoTakesUp: missed.map((m) => ({ login: m.login, url: m.url })) } : {}),
          record: baseRecord,
        };
  const agentConfig = job.config.agents[job.agentName];
  // Stops the preparation and the agent when the reports cannot be made (the check run failed).
  const stop = new AbortController();
  const signal = options.signal ? AbortSignal.any([options.signal, stop.signal]) : stop.signal;

  const buffer = createBufferedReporter();
  const note = (line: string) => {
    buffer.note(line);
    options.onNote?.(redactor.redactString(line));
  };

  const target = (async () => {
    const pull = (await ownPull) ?? (await conversationPull(api, repo, job, plan.pullRequest, log));
    // A follow-up whose conversation's commits are on a branch without a pull request goes on there.
    const branch = pull ? undefined : await conversationBranch(api, repo, job, plan, log);
    const headSha = pull?.headSha ?? branch?.headSha ?? (await api.getBranchSha(repo, job.defaultBranch));
    if (headSha === undefined) throw new Error(`the default branch ${job.defaultBranch} has no commit`);
    return { pull, branch, headSha };
  })();

  // The check run and the tracking comment are written while the agent's program and the
  // workspace get ready: the agent never waits for GitHub's write throttle.
  const reporting = (async () => {
    const started = await startReporting({
      api,
      job,
      runId,
      headSha: (await target).headSha,
      turn: plan.turn,
      model: options.model ?? agentConfig?.model,
      tracking,
      baseRecord,
      detailsUrl: options.detailsUrl,
      clock: options.clock,
      ...(options.liveWrites ? { liveWrites: options.liveWrites } : {}),
      onStarted: options.onStarted,
      log,
    });
    buffer.attach(started.reporter);
    return started;
  })();
  let reportingFailed = false;
  reporting.catch(() => {
    reportingFailed = true;
    stop.abort('the check run could not be created');
  });

  const fail = async (conclusion: RunOutcome['conclusion'], reason: string, end?: RunEnd): Promise<RunOutcome> => {
    note(reason);
    const { reporter, base } = await reporting;
    const said = answer();
    await reporter.finish({
      conclusion,
      reason,
      ...(said === undefined ? {} : { answer: said }),
      record: turnRecordOf(baseRecord, { conclusion, finalMessage: finalMessage.summary }),
    });
    return {
      ...base,
      conclusion,
      reason,
      end,
      changedFiles: [],
      approvals: approvalsOf(reporter.progress),
      progress: reporter.progress,
    };
  };

  const ready = (async () => {
    const resolved = resolveAgentAdapter({
      registry: options.registry,
      agentName: job.agentName,
      config: job.config,
      file: REPO_CONFIG_PATH,
    });
    const [program, workspace] = await Promise.allSettled([
      options.prepare ? options.prepare(signal) : Promise.resolve(undefined),
      target.then(({ pull, branch, headSha }) =>
        prepareWorkspace({
          cwd: options.workspace,
          remote: options.git.remote,
          token: options.git.token,
          adapter: resolved.adapter.id,
          target: pull
            ? {
                kind: 'pull',
                number: pull.number,
                headSha: pull.headSha,
                headRef: pull.headRef,
                baseRef: pull.baseRef,
                fromFork: pull.fromFork,
              }
            : branch
              ? { kind: 'branch', branch: branch.name, headSha: branch.headSha, defaultBranch: job.defaultBranch }
              : { kind: 'issue', defaultBranch: job.defaultBranch, headSha: headSha },
        }),
      ),
    ]);
    if (program.status === 'rejected') throw program.reason;
    if (workspace.status === 'rejected') throw workspace.reason;
    return {
      resolved,
      prepared: workspace.value,
      env: { ...options.env, ...program.value?.env },
      programVersion: program.value?.programVersion,
    };
  })();

  let started: Awaited<typeof ready>;
  try {
    started = await ready;
  } catch (error) {
    if (reportingFailed) await reporting; // throws why the check run could not be made
    return fail(options.signal?.aborted ? 'cancelled' : 'failure', `could not start: ${errorText(error)}`);
  }
  if (reportingFailed) await reporting;
  const { resolved, prepared } = started;
  const { pull, branch: onBranch, headSha } = await target;
  if (prepared.restored.length + prepared.removed.length > 0) {
    note(`agent config files reset to the base branch: ${[...prepared.restored, ...prepared.removed].join(', ')}`);
  }

  // A retry whose predecessor had pushed the run's commit before its worker died: that commit is
  // the run's result; the agent is not run (and paid) again.
  const earlier = options.retried
    ? await earlierAttemptCommit({
        api,
        repo,
        job,
        pull,
        branch: onBranch?.name,
        cwd: options.workspace,
        git: options.git,
        runId,
        log: note,
      })
    : undefined;
  if (earlier !== undefined) {
    let published: Awaited<ReturnType<typeof pullRequestFor>>;
    try {
      published = await pullRequestFor({ api, job, pull, ...earlier });
    } catch (error) {
      return fail('failure', `an earlier attempt's commit could not be published: ${errorText(error)}`);
    }
    note(
      `an earlier attempt of this run had pushed ${earlier.commitSha.slice(0, 7)} to ${earlier.branch} before its worker stopped: published it, the agent was not run again`,
    );
    note(published.note);
    const pullNumber = pull?.number ?? pullNumberOf(published.pullRequestUrl);
    const { reporter, base } = await reporting;
    await reporter.finish({
      conclusion: 'success',
      branch: published.branch,
      pullRequestUrl: published.pullRequestUrl,
      noChanges: false,
      annotations: renderAnnotations(published.files),
      record: turnRecordOf(baseRecord, {
        conclusion: 'success',
        finalMessage: undefined,
        branch: published.branch,
        pullRequest: pullNumber,
      }),
    });
    return {
      ...base,
      conclusion: 'success',
      end: undefined,
      branch: published.branch,
      pullRequestUrl: published.pullRequestUrl,
      changedFiles: published.files,
      approvals: approvalsOf(reporter.progress),
      progress: reporter.progress,
    };
  }

  const approvalTimeoutMs = options.approvalTimeoutMs ?? job.config.approvals.timeout;
  const currentHead = async (): Promise<string> =>
    pull
      ? (await api.getPull(repo, pull.number)).headSha
      : ((await api.getBranchSha(repo, onBranch?.name ?? job.defaultBranch)) ?? headSha);
  const channel =
    job.number === undefined
      ? undefined
      : createGitHubApprovalChannel({
          // An approval asked before the tracking comment exists waits for it, so the comments read in order.
          api: {
            ...api,
            createComment: async (...args) => {
              await reporting;
              return api.createComment(...args);
            },
          },
          repo,
          number: job.number,
          isPullRequest: job.isPullRequest,
          agent: job.agentName,
          rule: job.config.approvals,
          requestReview: job.config.approvals.requestReview,
          currentHead,
          selfLogins: deps.selfLogins,
          redact: (text) => redactor.redactString(text),
          timeoutText: humanDuration(approvalTimeoutMs),
          onNote: note,
        });
  // A dispatched run with no issue or pull request has nowhere to ask: what the policy would ask
  // about is denied at once, with that reason, and said before the agent starts.
  const unattended =
    job.number === undefined ? autoApprovalChannel('deny', { by: 'agent-mux', reason: UNATTENDED_REASON }) : undefined;
  if (unattended) note(UNATTENDED_NOTE);
  let runEnded = false;
  let detach: (() => void) | undefined;
  if (channel && options.attachApprovals) {
    const attach = options.attachApprovals;
    reporting.then(
      ({ base }) => {
        if (!runEnded) detach = attach(channel, { runId, checkRunId: base.checkRunId });
      },
      () => {},
    );
  }

  const resumed = await resumeTurn({
    conversations: options.conversations,
    job,
    plan,
    adapter: resolved.adapter,
    location: sessionLocation(options.fence, started.env, options.workspace, resolved.adapter.program?.command),
    redactor: secrets.redactor,
    log: note,
  });
  const prompt =
    (resumed.sessionId
      ? job.prompt
      : job.prompt +
        conversationSummary(plan.earlier, await commitsSince(options.workspace, prepared, plan.earlier.length))) +
    missedMentionsPrompt(missed) +
    workflowInstructions(options.instructions);

  // The policy's `shell` etc. also name the agent's own tools: at launch and in its approvals.
  const policy = policyForAgent(runPolicy(job.config, job.agentName), resolved.adapter.toolNames);
  const handle = startRun({
    adapter: resolved.adapter,
    request: {
      prompt,
      cwd: options.workspace,
      model: options.model ?? resolved.model,
      ...(resumed.sessionId ? { resumeSessionId: resumed.sessionId } : {}),
    },
    runId,
    taskId: job.id,
    leaseToken: options.leaseToken,
    fencingToken: options.fencingToken,
    timeoutMs: options.timeoutMs ?? agentConfig?.timeout ?? job.config.limits.runTimeout,
    env: started.env,
    ...(started.programVersion === undefined ? {} : { programVersion: started.programVersion }),
    redactor: secrets.redactor,
    secretEnv: options.secretEnv,
    isolateEnv: options.isolateEnv,
    fence: options.fence,
    sandboxUnavailable: job.config.tools.sandboxUnavailable,
    budget: job.config.limits.budget,
    approvals: channel ?? unattended,
    policy,
    signal,
    graceMs: options.graceMs,
    tools: ({ runId: id, emit }) =>
      createToolHost({
        runId: id,
        workspacePath: options.workspace,
        tools: builtinTools(callerShell(resolved.adapter, started.env, options)),
        policy,
        approvals: channel ?? unattended,
        approvalTimeoutMs,
        emit,
        signal,
        // The task as the agent is run with it: the request with the earlier turns, the requests
        // taken up and the workflow's instructions; the model when one is chosen.
        task: {
          prompt,
          ...((options.model ?? resolved.model) ? { model: options.model ?? resolved.model } : {}),
          repository: `${repo.owner}/${repo.repo}`,
          ...(job.isPullRequest ? { pullRequest: { number: job.number } } : { issue: { number: job.number } }),
        },
      }),
    onEvent: (event) => {
      buffer.onEvent(event);
      options.onEvent?.(event);
    },
  });
  const end = await handle.result;
  runEnded = true;
  detach?.();
  await channel?.voidPending('the run ended');
  if (reportingFailed) await reporting;

  const conclusion = conclusionOf(end.reason);
  const keep = (branch: string | undefined, pullRequest: number | undefined) =>
    resumed.save({ sessionId: end.sessionId, branch, pullRequest });
  if (conclusion !== 'success') {
    await keep(pull?.headRef, pull?.number);
    return fail(conclusion, end.message ? `${end.reason}: ${end.message}` : `the run ended: ${end.reason}`, end);
  }

  let published: Awaited<ReturnType<typeof publishResult>>;
  try {
    published = await publishResult({
      api,
      job,
      pull: pull as PullInfo | undefined,
      cwd: options.workspace,
      git: options.git,
      ignore: [...prepared.restored, ...prepared.removed],
      secrets: secrets.values,
      runId,
      ...(onBranch ? { branch: onBranch.name } : {}),
      ...(options.afterPush ? { afterPush: options.afterPush } : {}),
    });
  } catch (error) {
    await keep(pull?.headRef, pull?.number);
    return fail('failure', `the agent finished but its changes could not be published: ${errorText(error)}`, end);
  }
  const pullNumber = pull?.number ?? pullNumberOf(published.pullRequestUrl);
  await keep(published.branch ?? pull?.headRef, pullNumber);
  note(published.note);
  const { reporter, base } = await reporting;
  // No green run that did nothing: it tried to change something, was refused or failed, and changed nothing.
  // Nor one whose writes or claims of a change left no trace in the checkout.
  const didNothing =
    published.files.length === 0
      ? (changedNothingReason(reporter.progress.steps) ??
        unseenChangesReason(reporter.progress.steps, finalMessage.summary ?? '', (path) => {
          const full = resolve(options.workspace, path);
          return full.startsWith(`${options.workspace}${sep}`) && existsSync(full);
        }))
      : undefined;
  if (didNothing) return fail('neutral', didNothing, end);
  const said = answer();
  await reporter.finish({
    conclusion: 'success',
    ...(said === undefined ? {} : { answer: said }),
    branch: published.branch,
    pullRequestUrl: published.pullRequestUrl,
    noChanges: published.files.length === 0,
    fork: published.fork,
    annotations: renderAnnotations(published.files),
    record: turnRecordOf(baseRecord, {
      conclusion: 'success',
      finalMessage: finalMessage.summary,
      branch: published.branch,
      pullRequest: pullNumber,
    }),
  });
  return {
    ...base,
    conclusion: 'success',
    end,
    branch: published.branch,
    pullRequestUrl: published.pullRequestUrl,
    changedFiles: published.files,
    approvals: approvalsOf(reporter.progress),
    progress: reporter.progress,
  };
}

function approvalsOf(progress: { approvals: readonly ApprovalEntry[] }): RunOutcome['approvals'] {
  return progress.approvals.map((a) => ({ approvalId: a.id, toolName: a.toolName, decision: a.state, by: a.by }));
}

export type { GitHubApi };

/**
 * `shell` for an agent whose tools are all the run's (a remote agent over ca-http-v1, a Process
 * agent): its commands run here, in the checkout, in the run's fence, with the agent's environment
 * (the allowlist's base list and the operator's extra names, never a key), under the run's policy.
 * Other agents have their own shell and get none.
 */
function callerShell(
  adapter: Adapter,
  env: Readonly<Record<string, string | undefined>>,
  options: Pick<ExecuteRunOptions, 'fence' | 'isolateEnv'>,
): BuiltinToolOptions {
  if (adapter.callerTools !== 'native') return {};
  return {
    shell: {
      env: agentEnvironment(env, { extra: options.isolateEnv?.extra ?? [] }),
      ...(options.fence ? { fence: options.fence } : {}),
    },
  };
}

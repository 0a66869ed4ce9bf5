import type { Budget, BudgetSpent, RunEnd, RunHandle } from '../../../core/run/run-options.ts';
import { startRun } from '../../../core/run/start-run.ts';
import { builtinTools } from '../../../core/tools/builtin-tools.ts';
import { createToolHost } from '../../../core/tools/create-tool-host.ts';
import { policyForAgent } from '../../../core/tools/policy-for-agent.ts';
import type { GitHubApprovalChannel } from '../../approvals/github-approval-channel.ts';
import { conversationSummary } from '../../conversation/conversation-summary.ts';
import { missedMentionsPrompt } from '../../conversation/missed-mentions.ts';
import { type ResumedTurn, resumeTurn, sessionLocation } from '../../conversation/run-turn.ts';
import { reportFindingTool } from '../../review/report-finding-tool.ts';
import { reviewPolicy } from '../../review/review-policy.ts';
import { createRunSteering, type RunSteering } from '../../steering/run-steering.ts';
import { commitsSince } from '../commits-since.ts';
import { runPolicy } from '../run-policy.ts';
import { workflowInstructions } from '../workflow-instructions.ts';
import { callerShell } from './caller-shell.ts';
import type { RunContext } from './plan-run.ts';
import type { PreparedAgent } from './prepare-agent.ts';
import type { ReviewSession } from './prepare-review.ts';
import { runApprovals } from './run-approvals.ts';
import type { RunReports } from './run-reports.ts';
import { type RunSpending, runSpending } from './run-spending.ts';
import type { RunTarget } from './run-target.ts';

/** How the agent's run ended, and how to keep its session for the conversation's next turn. */
export interface AgentRun {
  end: RunEnd;
  keep(branch: string | undefined, pullRequest: number | undefined): Promise<void>;
}

/**
 * Runs the agent: the previous turn's session resumed (or the earlier turns summarized in the
 * prompt), the run's policy in the agent's own tool names, approvals on GitHub, the tool host,
 * every event into the reports. Returns when the agent's run has ended and its approvals are closed.
 */
export async function runAgent(
  ctx: RunContext,
  reports: RunReports,
  target: RunTarget,
  agent: PreparedAgent,
  review?: ReviewSession,
): Promise<AgentRun> {
  const { options, job, secrets } = ctx;
  const { adapter } = agent.resolved;
  let running: RunHandle | undefined;
  const steering = runSteering(ctx, reports, () => running);
  const approvals = runApprovals(ctx, reports, target, steering);
  const spending = await runSpending(ctx, reports);
  const resumed = await resumeTurn({
    conversations: options.conversations,
    job,
    plan: ctx.plan,
    adapter,
    location: sessionLocation(options.fence, agent.env, options.workspace, adapter.program?.command),
    redactor: secrets.redactor,
    log: (line) => reports.note(line),
  });
  const prompt = (await agentPrompt(ctx, agent, resumed)) + (review?.prompt ?? '');
  const model = options.model ?? agent.resolved.model;
  // The policy's `shell` etc. also name the agent's own tools: at launch and in its approvals.
  const configured = runPolicy(job.config, job.agentName);
  const policy = policyForAgent(review ? reviewPolicy(configured) : configured, adapter.toolNames);
  const handle = startRun({
    adapter,
    request: {
      prompt,
      cwd: options.workspace,
      model,
      ...(resumed.sessionId ? { resumeSessionId: resumed.sessionId } : {}),
    },
    runId: ctx.runId,
    taskId: job.id,
    leaseToken: options.leaseToken,
    leaseEpoch: options.leaseEpoch,
    timeoutMs: options.timeoutMs ?? job.config.agents[job.agentName]?.timeout ?? job.config.limits.runTimeout,
    env: agent.env,
    ...(agent.programVersion === undefined ? {} : { programVersion: agent.programVersion }),
    redactor: secrets.redactor,
    secretEnv: options.secretEnv,
    isolateEnv: options.isolateEnv,
    fence: options.fence,
    sandboxUnavailable: job.config.tools.sandboxUnavailable,
    ...(spending.budget === undefined ? {} : { budget: spending.budget }),
    ...(spending.ceiling === undefined ? {} : { budgetCeiling: spending.ceiling }),
    // A spent budget pauses the agent and asks on GitHub, like an approval (same approvers, same timeout).
    ...(approvals.github === undefined
      ? {}
      : { onBudgetSpent: askForBudget(approvals.github, approvals.timeoutMs, spending) }),
    approvals: approvals.channel,
    policy,
    signal: reports.signal,
    graceMs: options.graceMs,
    tools: ({ runId, emit }) =>
      createToolHost({
        runId,
        workspacePath: options.workspace,
        tools: [
          ...builtinTools(callerShell(adapter, agent.env, options)),
          ...(review ? [reportFindingTool(review.collector)] : []),
        ],
        policy,
        approvals: approvals.channel,
        approvalTimeoutMs: approvals.timeoutMs,
        emit,
        signal: reports.signal,
        // The task as the agent is run with it: the request with the earlier turns, the requests
        // taken up and the workflow's instructions; the model when one is chosen.
        task: {
          prompt,
          ...(model ? { model } : {}),
          repository: `${job.repo.owner}/${job.repo.repo}`,
          ...(job.isPullRequest ? { pullRequest: { number: job.number } } : { issue: { number: job.number } }),
        },
      }),
    onEvent: (event) => {
      reports.onEvent(event);
      options.onEvent?.(event);
    },
  });
  running = handle;
  const end = await handle.result;
  await approvals.close();
  await spending.record(end);
  return {
    end,
    keep: (branch, pullRequest) => resumed.save({ sessionId: end.sessionId, branch, pullRequest }),
  };
}

/**
 * Mentions on the run's issue or pull request (its review comments too) while it runs go to its agent (the front end's
 * poller or webhooks offer them); those delivered are kept in the turn's record (`steered`).
 */
function runSteering(
  ctx: RunContext,
  reports: RunReports,
  handle: () => RunHandle | undefined,
): RunSteering | undefined {
  const { job, options } = ctx;
  if (job.number === undefined) return undefined;
  const taken = new Set(ctx.baseRecord.comments ?? []);
  return createRunSteering({
    api: ctx.api,
    job,
    selfLogins: options.deps.selfLogins,
    phrase: options.catchUp?.phrase ?? job.config.trigger.phrase,
    agents: [...new Set([...Object.keys(job.config.agents), ...options.deps.builtinAgents])],
    allowedBots: options.catchUp?.allowedBots ?? job.config.trigger.allowedBots,
    steer: () => {
      const run = handle();
      return run && ((message) => run.steer(message));
    },
    taken: (source) => source.kind === 'issue_comment' && taken.has(source.commentId),
    onDelivered: (source) => {
      const record = ctx.baseRecord;
      if (source.kind === 'issue_comment') record.steered = [...(record.steered ?? []), source.commentId];
      else record.steeredReview = [...(record.steeredReview ?? []), source.commentId];
    },
    log: (line) => reports.note(line),
  });
}

/** Asks GitHub for a raise when the run's budget is spent; unanswered within `timeoutMs`, the run ends. */
function askForBudget(
  github: GitHubApprovalChannel,
  timeoutMs: number,
  spending: RunSpending,
): (spent: BudgetSpent, signal: AbortSignal) => Promise<Budget | undefined> {
  return (spent, signal) => {
    const daily = spending.daily(spent);
    return github.askBudget(
      { spent, ...(daily === undefined ? {} : { daily }) },
      AbortSignal.any([signal, AbortSignal.timeout(timeoutMs)]),
    );
  };
}

/**
 * The prompt: the request (with a summary of the earlier turns and their commits when no session
 * is resumed), the earlier mentions this run takes up, the workflow's instructions.
 */
async function agentPrompt(ctx: RunContext, agent: PreparedAgent, resumed: ResumedTurn): Promise<string> {
  const { job, plan, options } = ctx;
  const request = resumed.sessionId
    ? job.prompt
    : job.prompt +
      conversationSummary(plan.earlier, await commitsSince(options.workspace, agent.prepared, plan.earlier.length));
  return request + missedMentionsPrompt(ctx.missed) + workflowInstructions(options.instructions);
}

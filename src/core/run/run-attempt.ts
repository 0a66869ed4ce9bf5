import type { AgentSession, LaunchContext, ProcessController } from '../adapter/index.ts';
import type { ApprovalChannel } from '../tools/approval-channel.ts';
import type { ToolHost } from '../tools/tool-host.ts';
import type { RunInput } from './agent-input.ts';
import type { PauseControl } from './attempt-options.ts';
import type { AttemptResult } from './attempt-result.ts';
import { runProcessAttempt } from './process-attempt.ts';
import type { RunEmitter } from './run-emitter.ts';
import type { RunEvents } from './run-events.ts';
import type { RunMcp } from './run-mcp.ts';
import type { RunOptions } from './run-options.ts';
import { runSessionAttempt } from './session-attempt.ts';
import { armInactivity } from './stop/inactivity.ts';
import type { RunStopper } from './stop/run-stopper.ts';
import { armTimeout } from './stop/timeout.ts';

const MAX_PENDING_STDIN_BYTES = 8 * 1024 * 1024;

/** What stays the same across the attempts of one run. */
export interface RunParts {
  options: RunOptions;
  runId: string;
  env: Readonly<Record<string, string | undefined>>;
  debug: boolean;
  graceMs: number;
  terminalGraceMs: number;
  startedAt: number;
  emitter: RunEmitter;
  events: RunEvents;
  stopper: RunStopper;
  tools: ToolHost | undefined;
  approvals: ApprovalChannel | undefined;
  mcp: RunMcp;
  /** Aborted when the run is aborted. */
  signal: AbortSignal;
  /** Hears how to pause the running attempt (a process agent's; undefined between attempts and for sessions). */
  onPauseControl?: (control: PauseControl | undefined) => void;
  /** Hears the running attempt's input for messages mid-run (`SpawnPlan.input`). */
  onInput?: (input: RunInput | undefined) => void;
}

/** Where the running attempt's budget listener lives (its controller or session), for `armBudget`. */
export interface BudgetTarget {
  onBudget?(remaining: { tokens?: number; usd?: number }): void;
}

/**
 * Runs one attempt of a run, a process or a session as the adapter launches it, under the run's
 * timeout and inactivity limits; `onTarget` is given what hears of budget changes while it runs.
 */
export async function runAttempt(
  run: RunParts,
  onTarget: (target: ProcessController | AgentSession | undefined) => void,
): Promise<AttemptResult> {
  const { options, runId, mcp, stopper } = run;
  const ctx: LaunchContext = {
    request: options.request,
    runId,
    taskId: options.taskId ?? runId,
    leaseToken: options.leaseToken ?? '',
    leaseEpoch: options.leaseEpoch ?? 0,
    mcpUrl: mcp.url,
    mcpToken: mcp.token,
    mcpApprovalPrompt: mcp.server !== undefined && options.approvals !== undefined,
    workspacePath: options.request.cwd,
    env: run.env,
    debug: run.debug,
    clock: options.clock,
    policy: options.policy,
  };
  const disarmTimeout = armTimeout(options.timeoutMs, run.startedAt, stopper.requestStop);
  const idle = armInactivity(options.inactivityTimeoutMs, stopper.requestStop);
  const common = {
    ctx,
    emitter: run.emitter,
    graceMs: run.graceMs,
    terminalGraceMs: run.terminalGraceMs,
    tools: run.tools,
    approvals: run.approvals,
    signal: run.signal,
    onActivity: idle.activity,
    onNativeOutput: options.onNativeOutput,
    onStopper: (stop: Parameters<RunStopper['attach']>[0]) => stopper.attach(stop),
  };
  try {
    const launch = options.adapter.launch;
    return launch.kind === 'process'
      ? await runProcessAttempt({
          ...common,
          launch,
          maxPendingStdinBytes: options.maxPendingStdinBytes ?? MAX_PENDING_STDIN_BYTES,
          program: options.adapter.program,
          fence: options.fence,
          sandboxUnavailable: options.sandboxUnavailable ?? 'warn',
          onController: onTarget,
          onInput: run.onInput,
          startedAt: run.startedAt,
          onChild: (child) => run.events.setChild(child),
          // Paused, the agent is silent by design: the inactivity limit waits with it.
          onPauseControl: (control) =>
            run.onPauseControl?.(
              control && {
                pause: () => {
                  const paused = control.pause();
                  if (paused) idle.hold();
                  return paused;
                },
                resume: () => {
                  control.resume();
                  idle.release();
                },
              },
            ),
        })
      : await runSessionAttempt({ ...common, launch, onSession: onTarget });
  } finally {
    disarmTimeout();
    idle.clear();
    stopper.attach(undefined);
    onTarget(undefined);
  }
}

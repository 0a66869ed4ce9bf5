import type {
  NativeRecord,
  ProcessController,
  ProcessLaunch,
  ProgramInfo,
  RunIO,
  ShutdownReason,
  SpawnPlan,
} from '../adapter/index.ts';
import { separateTempDir } from '../env/separate-temp-dir.ts';
import { SpawnError } from '../errors/index.ts';
import { findOnPath } from '../runtime/find-on-path.ts';
import { type FenceNetwork, type FenceOptions, fenceCommand, openNetworkFor } from '../sandbox/index.ts';
import { expandArgs, expandEnv } from '../template/expand-template.ts';
import { templateVarsOf } from '../template/template-vars.ts';
import type { AttemptOptions } from './attempt-options.ts';
import type { AttemptResult, StopRequest } from './attempt-result.ts';
import type { Child } from './child.ts';
import { definedEnv } from './defined-env.ts';
import { terminateGroup, trackGroup, untrackGroup } from './process-group.ts';
import { RecordPipeline } from './record-pipeline.ts';
import type { RunEmitter } from './run-emitter.ts';
import { type SandboxCheck, startSandboxCheck } from './sandbox-check.ts';
import { settleWithin } from './settle-within.ts';
import { spawnPipes } from './spawn-pipes.ts';
import { spawnPty } from './spawn-pty.ts';
import { gracefulStop } from './stop/graceful-stop.ts';
import { TerminalGrace } from './stop/terminal-grace.ts';

export interface ProcessAttemptOptions extends AttemptOptions<ProcessLaunch> {
  /** Bytes the program may leave unread on stdin before the run is stopped. */
  maxPendingStdinBytes: number;
  /** The attempt's controller, for budget updates; undefined once the attempt is over. */
  onController: (controller: ProcessController | undefined) => void;
  /** Pause/resume hook for consumer backpressure. */
  onChild: (child: Child | undefined) => void;
  /** The adapter's program, to say how to install it when it is missing. */
  program?: ProgramInfo;
  /** Starts the program inside this fence (bubblewrap). */
  fence?: FenceOptions;
  /** A failed sandbox probe: start with a notice (`warn`) or not at all (`fail`). */
  sandboxUnavailable?: 'warn' | 'fail';
}

/** The longest delay `setTimeout` takes (about 24.8 days). */
const MAX_TIMER_MS = 2 ** 31 - 1;

/** Runs the adapter's program once: spawn, decode, translate, supervise, and end cleanly. */
export async function runProcessAttempt(options: ProcessAttemptOptions): Promise<AttemptResult> {
  const { launch, ctx, emitter, graceMs } = options;
  const translator = launch.translator;

  let plan: Awaited<ReturnType<ProcessLaunch['plan']>> | undefined;
  /** The fence's own program (bubblewrap) when the agent is started inside it. */
  let fenceProgram: string | undefined;
  /** The agent's own sandbox probe, when its plan has one. */
  let sandbox: SandboxCheck | undefined;
  /** The host's half of the fence's own network, when it has one. */
  let network: FenceNetwork | undefined;
  let child: Child;
  try {
    plan = await launch.plan(ctx);
    const vars = templateVarsOf(ctx);
    const expand = plan.expandTemplates === true;
    const args = expand ? expandArgs(plan.args, vars, ctx.env) : [...plan.args];
    const planEnv = expand ? expandEnv(plan.env ?? {}, vars, ctx.env) : (plan.env ?? {});
    const planned = { ...definedEnv(ctx.env), ...planEnv, ...(ctx.request.env ?? {}) };
    // A configuration inside the temp dir (a HOME under /tmp) gets a temp dir of its own: Codex's
    // sandbox helpers are refused otherwise. The file-system fence makes its own (`fenceCommand`).
    const separated = options.fence?.kind === 'filesystem' ? undefined : separateTempDir(planned);
    const env = separated?.env ?? planned;
    if (separated) {
      const own = plan.cleanup;
      plan = {
        ...plan,
        cleanup: async () => {
          separated.remove();
          await own?.();
        },
      };
    }
    const cwd = plan.cwd ?? ctx.request.cwd;
    const target = { command: plan.command, args, cwd, workspace: ctx.request.cwd, env };
    network = await openNetworkFor(options.fence, [...args, ...Object.values(env), ctx.mcpUrl]);
    const fenced = options.fence
      ? fenceCommand(
          options.fence,
          { ...target, planValues: [...args, ...Object.values(planEnv), ...(separated ? [separated.dir] : [])] },
          network?.inside,
        )
      : target;
    if (fenced.command !== plan.command) {
      fenceProgram = fenced.command;
      // Inside the fence a missing program is only bwrap's "execvp …: No such file" and exit 1:
      // look it up first, on the PATH the agent gets, so it is the same clear "not installed".
      if ((await findOnPath(plan.command, env.PATH ?? '/usr/local/bin:/usr/bin:/bin', { cwd })) === undefined) {
        await network?.close();
        await runCleanup(plan, emitter);
        return programMissing(plan.command, options.program, emitter);
      }
    }
    sandbox = startSandboxCheck(
      plan,
      { env, cwd, workspace: ctx.request.cwd, fence: options.fence },
      options.sandboxUnavailable ?? 'warn',
      options.signal,
    );
    const sandboxProblem = await sandbox.blocking;
    if (sandboxProblem) {
      await network?.close();
      await runCleanup(plan, emitter);
      const message = `not started (sandboxUnavailable: fail): ${sandboxProblem}`;
      emitter.emit({ type: 'notice', code: 'sandbox_unavailable', message: sandboxProblem });
      emitter.emit({ type: 'error', code: 'spawn_failed', message, recoverable: false });
      return { reason: 'failed', message };
    }
    const expanded = { ...plan, command: fenced.command, args: fenced.args };
    child = plan.pty ? await spawnPty(expanded, fenced.env, cwd) : await spawnPipes(expanded, fenced.env, cwd);
  } catch (error) {
    await sandbox?.end();
    await network?.close();
    await runCleanup(plan, emitter);
    const missing =
      SpawnError.isInstance(error) && (error.cause as NodeJS.ErrnoException | undefined)?.code === 'ENOENT';
    // Fenced, the program spawned is the fence's: its absence is not the agent's.
    if (missing && fenceProgram) return fenceMissing(fenceProgram, emitter);
    if (missing && plan) return programMissing(plan.command, options.program, emitter);
    const message = (error as Error).message;
    emitter.emit({ type: 'error', code: 'spawn_failed', message, recoverable: false });
    return { reason: 'failed', message };
  }
  const started: SpawnPlan = plan;
  const pgid = child.pid;
  trackGroup(pgid);
  if (network) {
    const failure = await network.attach(pgid).then(
      () => undefined,
      (error: Error) => error.message,
    );
    if (failure !== undefined) {
      await sandbox?.end();
      return networkFailed(failure, { child, pgid, network, plan: started, emitter });
    }
  }
  options.onChild(child);
  for (const notice of plan.notices ?? []) emitter.emit({ type: 'notice', ...notice });
  sandbox?.started(emitter);

  let recordSink: ((record: NativeRecord) => void) | undefined;
  const pipeline = new RecordPipeline({
    translator,
    protocol: plan.protocol,
    pty: plan.pty,
    debug: ctx.debug,
    request: ctx.request,
    clock: ctx.clock,
    name: options.program?.command,
    emit: (draft, raw) => emitter.emit(draft, raw),
    onRecord: (record) => {
      try {
        recordSink?.(record);
      } catch (error) {
        emitter.emit({ type: 'error', code: 'internal', message: (error as Error).message, recoverable: true });
      }
    },
  });
  const state = pipeline.state;
  const onNative = options.onNativeOutput;
  child.onStdout((chunk) => {
    options.onActivity();
    onNative?.('stdout', chunk);
    pipeline.pushStdout(chunk);
    if (state.terminal) terminal.reach();
  });
  child.onStderr((chunk) => {
    options.onActivity();
    onNative?.('stderr', chunk);
    pipeline.pushStderr(chunk);
  });

  let stopRequest: StopRequest | undefined;
  let stopping: Promise<unknown> | undefined;
  let stdinFailure: string | undefined;
  /** Graceful stop (the controller's, e.g. `shutdown` on stdin), then SIGTERM and SIGKILL to the group. */
  const beginStop = (reason: ShutdownReason, waitMs: number) => {
    stopping ??= gracefulStop({
      ask: () => (controller?.requestStop?.(reason) ? child.exited : undefined),
      waitMs,
      force: () => terminateGroup(pgid, waitMs),
    });
  };
  const stop = (request: StopRequest) => {
    if (stopRequest) return;
    stopRequest = request;
    terminal.stop();
    beginStop(request.shutdown, graceMs);
  };
  // The agent said it is done (a terminal record): what is left after the grace is stopped.
  const terminal = new TerminalGrace({
    terminalGraceMs: options.terminalGraceMs,
    graceMs,
    onGraceOver: () => beginStop('completed', terminal.settleMs),
  });

  const io: RunIO = {
    writeLine: async (value) => {
      const line = typeof value === 'string' ? value : JSON.stringify(value);
      if (child.pendingStdinBytes() > options.maxPendingStdinBytes) {
        stdinFailure = `the agent has not read ${child.pendingStdinBytes()} bytes written to its stdin`;
        emitter.emit({ type: 'error', code: 'stdin_blocked', message: stdinFailure, recoverable: false });
        stop({ reason: 'failed', shutdown: 'cancelled', message: stdinFailure });
        throw new Error(stdinFailure);
      }
      await child.write(`${line}\n`);
    },
    emit: (draft) => emitter.emit(draft),
    fail: (error) => {
      if (stopRequest) return;
      emitter.emit({ type: 'error', ...error, recoverable: false });
      stop({ reason: 'failed', shutdown: 'cancelled', message: error.message });
    },
    tools: options.tools,
    approvals: options.approvals,
    signal: options.signal,
  };
  const controller: ProcessController | undefined = launch.controller?.(io, ctx);
  recordSink = controller?.onRecord?.bind(controller);
  let removeListener: () => void = () => undefined;
  if (controller?.onEvent) {
    const onEvent = controller.onEvent.bind(controller);
    removeListener = emitter.addListener((event) => {
      try {
        onEvent(event);
      } catch (error) {
        emitter.emit({ type: 'error', code: 'internal', message: (error as Error).message, recoverable: true });
      }
    });
  }
  options.onController(controller);
  options.onStopper(stop);
  const maxRuntime =
    plan.maxRuntimeMs === undefined
      ? undefined
      : setTimeout(
          () => {
            const message = `${plan.command} ran longer than its ${plan.maxRuntimeMs} ms limit`;
            emitter.emit({ type: 'error', code: 'timeout', message, recoverable: false });
            stop({ reason: 'timeout', shutdown: 'timeout', message });
          },
          // A longer delay would overflow Node's timer and fire at once (`max_runtime: 720h`).
          Math.min(plan.maxRuntimeMs, MAX_TIMER_MS),
        );

  if (plan.stdin !== undefined) child.write(plan.stdin).catch(() => undefined);
  if (!plan.keepStdinOpen) child.closeStdin();

  const exit = await child.exited;
  await sandbox?.end();
  if (maxRuntime) clearTimeout(maxRuntime);
  terminal.stop();
  // Stopped by the core after its terminal record: the run ends as the agent said, whatever the exit.
  const endedByTerminal = terminal.reached && stopping !== undefined;
  // Let the pipes drain, but a grandchild holding them open must not hold the run.
  await settleWithin(child.drained, Math.min(graceMs, 2000), undefined);
  pipeline.end();
  if (controller?.settle) {
    const settled = controller.settle().catch(() => undefined);
    await settleWithin(settled, graceMs, undefined);
  }
  child.closeStdin();
  options.onChild(undefined);
  options.onController(undefined);
  removeListener();
  if (stopping) await stopping;
  // Nothing of the group may outlive the run, whatever the leader did.
  await terminateGroup(pgid, Math.min(graceMs, 2000));
  untrackGroup(pgid);
  await network?.close();

  await runCleanup(started, emitter);
  pipeline.finish(exit);
  const base = { exitCode: exit.exitCode, signal: exit.signal, sessionId: state.sessionId };
  if (endedByTerminal && state.outcome) {
    const { status, message, output } = state.outcome;
    return { ...base, reason: status, message, output };
  }
  if (stopRequest) return { ...base, reason: stopRequest.reason, message: stopRequest.message };
  if (state.outcome?.status === 'failed') {
    return { ...base, reason: 'failed', message: state.outcome.message, output: state.outcome.output };
  }
  if (exit.exitCode !== 0) {
    const stderr = pipeline.stderrTail.toString();
    emitter.emit({ type: 'crash', exitCode: exit.exitCode, signal: exit.signal, stderr });
    const how = exit.signal ? `killed by ${exit.signal}` : `exited with code ${exit.exitCode}`;
    return { ...base, reason: 'crashed', message: `${started.command} ${how}` };
  }
  return { ...base, reason: 'completed', message: state.outcome?.message, output: state.outcome?.output };
}

/** The plan's own clean-up (temporary config files); its failure is reported, never thrown. */
async function runCleanup(plan: SpawnPlan | undefined, emitter: RunEmitter): Promise<void> {
  try {
    await plan?.cleanup?.();
  } catch (error) {
    emitter.emit({
      type: 'error',
      code: 'internal',
      message: `clean-up failed: ${(error as Error).message}`,
      recoverable: true,
    });
  }
}

/** The fence's own network could not be set up: the agent (still waiting for it) is stopped, the run fails. */
async function networkFailed(
  why: string,
  run: { child: Child; pgid: number; network: FenceNetwork; plan: SpawnPlan; emitter: RunEmitter },
): Promise<AttemptResult> {
  await terminateGroup(run.pgid, 0);
  untrackGroup(run.pgid);
  await settleWithin(run.child.exited, 2000, undefined);
  await run.network.close();
  await runCleanup(run.plan, run.emitter);
  const message = `the run's fence could not set up its network, the agent was not started: ${why}`;
  run.emitter.emit({ type: 'error', code: 'spawn_failed', message, recoverable: false });
  return { reason: 'failed', message };
}

/** The fence's program (bubblewrap) is not installed: the run fails with that reason, never the agent's. */
function fenceMissing(command: string, emitter: RunEmitter): AttemptResult {
  const message = `the run's fence needs ${command} (bubblewrap), which is not installed or not on PATH; install it (Debian/Ubuntu: apt-get install bubblewrap)`;
  emitter.emit({ type: 'error', code: 'spawn_failed', message, recoverable: false });
  return { reason: 'failed', message };
}

/** The agent's program is not installed: a crash whose message says how to install it. */
function programMissing(command: string, program: ProgramInfo | undefined, emitter: RunEmitter): AttemptResult {
  const install = program?.install[0];
  const message = `${command} is not installed or not on PATH${install ? `; install it with: ${install.command}` : ''}`;
  emitter.emit({ type: 'error', code: 'program_missing', message, recoverable: false });
  emitter.emit({ type: 'crash', exitCode: null, signal: null, stderr: message });
  return { reason: 'crashed', message };
}

import type {
  ExitInfo,
  NativeRecord,
  ProcessController,
  ProcessLaunch,
  ProgramInfo,
  RunIO,
  ShutdownReason,
  SpawnPlan,
} from '../adapter/index.ts';
import type { FenceOptions } from '../sandbox/index.ts';
import { AgentInput, type RunInput } from './agent-input.ts';
import { networkFailed, runCleanup } from './attempt-failures.ts';
import type { AttemptOptions, PauseControl } from './attempt-options.ts';
import type { AttemptResult, StopRequest } from './attempt-result.ts';
import type { Child } from './child.ts';
import { launchProcess } from './launch-process.ts';
import { signalGroup, terminateGroup, trackGroup, untrackGroup } from './process-group.ts';
import { RecordPipeline } from './record-pipeline.ts';
import type { RunEmitter } from './run-emitter.ts';
import { settleWithin } from './settle-within.ts';
import { gracefulStop } from './stop/graceful-stop.ts';
import { TerminalGrace } from './stop/terminal-grace.ts';
import { trackStdin } from './tracked-stdin.ts';

export interface ProcessAttemptOptions extends AttemptOptions<ProcessLaunch> {
  /** Bytes the program may leave unread on stdin before the run is stopped. */
  maxPendingStdinBytes: number;
  /** The attempt's controller, for budget updates; undefined once the attempt is over. */
  onController: (controller: ProcessController | undefined) => void;
  /** Pause/resume hook for consumer backpressure. */
  onChild: (child: Child | undefined) => void;
  /** Pauses and resumes the program's process group (a spent budget waiting to be raised); undefined once it is over. */
  onPauseControl?: (control: PauseControl | undefined) => void;
  /** The program's input for messages mid-run (`SpawnPlan.input`); undefined when it takes none, or once it is over. */
  onInput?: (input: RunInput | undefined) => void;
  /** When the run started: a message's notice says when in the run it was taken. */
  startedAt?: number;
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

  const launched = await launchProcess(options);
  if (!('child' in launched)) return launched;
  const { plan, child, sandbox, network } = launched;
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
  let input: AgentInput | undefined;
  const pipeline = recordPipelineFor(options, plan, (record) => {
    recordSink?.(record);
    // Right after the record that says so: the notice stands where the agent took the message.
    input?.observe(state.takenInputs);
  });
  const state = pipeline.state;
  const onNative = options.onNativeOutput;
  child.onStdout((chunk) => {
    options.onActivity();
    onNative?.('stdout', chunk);
    pipeline.pushStdout(chunk);
    if (!state.terminal) return;
    // A message written to the agent and not yet taken, or a turn the controller started for one:
    // that turn ends the run.
    if ((input && !input.mayEnd()) || controller?.holdsTurn?.()) state.terminal = false;
    else terminal.reach();
  });
  child.onStderr((chunk) => {
    options.onActivity();
    onNative?.('stderr', chunk);
    pipeline.pushStderr(chunk);
  });

  const stdin = trackStdin(child);
  let stopRequest: StopRequest | undefined;
  let stopping: Promise<unknown> | undefined;
  /** Paused (SIGSTOP) by a spent budget waiting to be raised. */
  let paused = false;
  const resume = () => {
    if (!paused) return;
    paused = false;
    signalGroup(pgid, 'SIGCONT');
  };
  const force = (waitMs: number) => {
    // `terminateGroup` continues a paused group after its SIGTERM: it dies without another step.
    paused = false;
    return terminateGroup(pgid, waitMs);
  };
  /** Graceful stop (the controller's, e.g. `shutdown` on stdin), then SIGTERM and SIGKILL to the group. */
  const beginStop = (reason: ShutdownReason, waitMs: number) => {
    stopping ??= gracefulStop({
      ask: () => {
        if (!controller?.requestStop?.(reason)) return undefined;
        if (paused) continueToStop(waitMs);
        return child.exited;
      },
      waitMs,
      force: () => force(waitMs),
    });
  };
  /**
   * A paused agent asked to stop is continued only once the request is on its stdin: what it reads
   * first when it runs again is that it must stop, and it shuts down without one more model step.
   * A request that cannot be written in time is not waited for: SIGTERM, then SIGCONT.
   */
  const continueToStop = (waitMs: number) => {
    void settleWithin(stdin.flushed(), waitMs, false).then((written) => {
      if (!paused) return;
      if (written) resume();
      else void force(waitMs);
    });
  };
  options.onPauseControl?.({
    // A stopping attempt is not paused: its shutdown would wait for nothing.
    pause: () => {
      if (stopping !== undefined) return false;
      paused = signalGroup(pgid, 'SIGSTOP');
      return paused;
    },
    resume,
  });
  const stop = (request: StopRequest) => {
    if (stopRequest) return;
    stopRequest = request;
    input?.close('the run is stopping');
    terminal.stop();
    beginStop(request.shutdown, graceMs);
  };
  // The agent said it is done (a terminal record): what is left after the grace is stopped.
  const terminal = new TerminalGrace({
    terminalGraceMs: options.terminalGraceMs,
    graceMs,
    onGraceOver: () => beginStop('completed', terminal.settleMs),
  });

  const io = runIO(child, options, { stop, stopped: () => stopRequest !== undefined, write: stdin.write });
  const controller: ProcessController | undefined = launch.controller?.(io, ctx);
  const takes = plan.input;
  if (takes) {
    input = new AgentInput({
      message: (text) => takes.message(text),
      write: (line) => io.writeLine(line),
      closeStdin: () => child.closeStdin(),
      emit: (draft) => emitter.emit(draft),
      startedAt: options.startedAt ?? Date.now(),
    });
    options.onInput?.(input);
  } else if (controller?.steer) {
    const steer = controller.steer.bind(controller);
    options.onInput?.({ send: (message) => steer(message) });
  }
  recordSink = controller?.onRecord?.bind(controller);
  const removeListener = listenToController(controller, emitter);
  options.onController(controller);
  options.onStopper(stop);
  const maxRuntime = startMaxRuntime(plan, emitter, stop);

  if (plan.stdin !== undefined) child.write(plan.stdin).catch(() => undefined);
  if (!plan.keepStdinOpen) child.closeStdin();

  const exit = await child.exited;
  input?.close('the agent has ended');
  options.onInput?.(undefined);
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
  options.onPauseControl?.(undefined);
  options.onController(undefined);
  removeListener();
  if (stopping) await stopping;
  // Nothing of the group may outlive the run, whatever the leader did.
  await terminateGroup(pgid, Math.min(graceMs, 2000));
  untrackGroup(pgid);
  await network?.close();

  await runCleanup(started, emitter);
  pipeline.finish(exit);
  return attemptOutcome({ exit, state, endedByTerminal, stopRequest, pipeline, command: started.command, emitter });
}

/**
 * How the attempt ended: as the agent said when the core stopped it after its terminal record;
 * as the core's stop request said; failed when the agent reported a failure; crashed on a nonzero
 * exit (with its stderr's tail); else completed.
 */
function attemptOutcome(input: {
  exit: ExitInfo;
  state: RecordPipeline['state'];
  endedByTerminal: boolean;
  stopRequest: StopRequest | undefined;
  pipeline: RecordPipeline;
  command: string;
  emitter: RunEmitter;
}): AttemptResult {
  const { exit, state, endedByTerminal, stopRequest, pipeline, emitter } = input;
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
    return { ...base, reason: 'crashed', message: `${input.command} ${how}` };
  }
  return { ...base, reason: 'completed', message: state.outcome?.message, output: state.outcome?.output };
}

/**
 * What a controller talks to the agent through: lines on its stdin (a program that stops reading
 * them is stopped, failed), events, a failure that stops the run (unless it is stopping), the tool
 * host and the approvals.
 */
function runIO(
  child: Child,
  options: ProcessAttemptOptions,
  run: { stop: (request: StopRequest) => void; stopped: () => boolean; write: (data: string) => Promise<void> },
): RunIO {
  const { emitter } = options;
  const { stop } = run;
  return {
    writeLine: async (value) => {
      const line = typeof value === 'string' ? value : JSON.stringify(value);
      if (child.pendingStdinBytes() > options.maxPendingStdinBytes) {
        const failure = `the agent has not read ${child.pendingStdinBytes()} bytes written to its stdin`;
        emitter.emit({ type: 'error', code: 'stdin_blocked', message: failure, recoverable: false });
        stop({ reason: 'failed', shutdown: 'cancelled', message: failure });
        throw new Error(failure);
      }
      await run.write(`${line}\n`);
    },
    closeInput: () => child.closeStdin(),
    emit: (draft) => emitter.emit(draft),
    fail: (error) => {
      if (run.stopped()) return;
      emitter.emit({ type: 'error', ...error, recoverable: false });
      stop({ reason: 'failed', shutdown: 'cancelled', message: error.message });
    },
    tools: options.tools,
    approvals: options.approvals,
    signal: options.signal,
  };
}

/** The controller's view of the run's events; an error it throws is reported, never the run's end. */
function listenToController(controller: ProcessController | undefined, emitter: RunEmitter): () => void {
  if (!controller?.onEvent) return () => undefined;
  const onEvent = controller.onEvent.bind(controller);
  return emitter.addListener((event) => {
    try {
      onEvent(event);
    } catch (error) {
      emitter.emit({ type: 'error', code: 'internal', message: (error as Error).message, recoverable: true });
    }
  });
}

/** The plan's own runtime limit (`max_runtime`): past it the run is stopped, timed out. */
function startMaxRuntime(
  plan: SpawnPlan,
  emitter: RunEmitter,
  stop: (request: StopRequest) => void,
): ReturnType<typeof setTimeout> | undefined {
  const limit = plan.maxRuntimeMs;
  if (limit === undefined) return undefined;
  return setTimeout(
    () => {
      const message = `${plan.command} ran longer than its ${limit} ms limit`;
      emitter.emit({ type: 'error', code: 'timeout', message, recoverable: false });
      stop({ reason: 'timeout', shutdown: 'timeout', message });
    },
    // A longer delay would overflow Node's timer and fire at once (`max_runtime: 720h`).
    Math.min(limit, MAX_TIMER_MS),
  );
}

/** The decoding and translation of the program's output; a record the controller cannot take is reported. */
function recordPipelineFor(
  options: ProcessAttemptOptions,
  plan: SpawnPlan,
  toController: (record: NativeRecord) => void,
): RecordPipeline {
  const { ctx, emitter } = options;
  return new RecordPipeline({
    translator: options.launch.translator,
    protocol: plan.protocol,
    pty: plan.pty,
    debug: ctx.debug,
    request: ctx.request,
    clock: ctx.clock,
    name: options.program?.command,
    emit: (draft, raw) => emitter.emit(draft, raw),
    onRecord: (record) => {
      try {
        toController(record);
      } catch (error) {
        emitter.emit({ type: 'error', code: 'internal', message: (error as Error).message, recoverable: true });
      }
    },
  });
}

import type { AgentSession, ExitInfo, SessionContext, SessionOutcome } from '../../../core/adapter/index.ts';
import type { EventDraft } from '../../../core/events/index.ts';
import { LongLivedProcess } from '../../../core/run/long-lived-process.ts';
import { type SharedProgramSpec, sharedProgramLaunch } from '../../../core/run/shared-program-launch.ts';
import { closeTextMessage, initTextOutputState, textLineDrafts } from './text-output-translator.ts';

export interface PersistentCliOptions extends SharedProgramSpec {
  /** A turn ends when the program has printed nothing for this long. */
  quietMs: number;
  /**
   * A program started for this turn has this long to print its first line before the quiet window
   * applies: its start-up (a runtime loading, a banner) is not silence in answer to the prompt.
   */
  startupMs: number;
}

interface Turn {
  process: LongLivedProcess;
  stdout(line: string): void;
  stderr(line: string): void;
  overflow(bytes: number): void;
}

/**
 * One interactive program shared by every run of a generic-cli adapter (`spawn_policy: persistent`).
 * Runs take turns: each writes its prompt as a line to the program's stdin and takes what the program
 * prints until it has been quiet for `quietMs` (the program never says that it is done). A program that
 * dies during a turn with a non-zero code or a signal ends that run `crashed`, with a `crash` event
 * carrying its stderr tail; the next run starts it again. A stopped run kills the program: it may still
 * be answering, and its late output must not become the next run's.
 */
export class PersistentCli {
  readonly #options: PersistentCliOptions;
  #process: LongLivedProcess | undefined;
  #turn: Turn | undefined;
  #lock: Promise<void> = Promise.resolve();
  #disposed = false;
  readonly #disposeController = new AbortController();

  constructor(options: PersistentCliOptions) {
    this.#options = options;
  }

  /** The program's pid while it runs. */
  get pid(): number | undefined {
    return this.#process?.alive ? this.#process.pid : undefined;
  }

  async open(ctx: SessionContext): Promise<AgentSession> {
    const stopController = new AbortController();
    const stopSignal = AbortSignal.any([ctx.signal, stopController.signal, this.#disposeController.signal]);
    const previous = this.#lock;
    let release: () => void = () => undefined;
    this.#lock = new Promise<void>((resolve) => {
      release = resolve;
    });
    const done = (async (): Promise<SessionOutcome> => {
      try {
        await untilSettledOrAborted(previous, stopSignal);
        if (this.#disposed) return { status: 'failed', message: 'the adapter was disposed' };
        if (stopSignal.aborted) return { status: 'failed', message: 'stopped before its turn' };
        let process: LongLivedProcess;
        const fresh = !this.#process?.alive;
        try {
          process = await this.#ensureProcess(ctx);
        } catch (error) {
          const message = (error as Error).message;
          ctx.emit({ type: 'error', code: 'spawn_failed', message, recoverable: false });
          return { status: 'failed', message };
        }
        return await this.#takeTurn(process, ctx, stopSignal, fresh);
      } finally {
        release();
      }
    })();
    return {
      done,
      stop: async (reason) => {
        stopController.abort(reason);
        await done.catch(() => undefined);
      },
    };
  }

  /** Ends the current turn and kills the program; later runs fail. */
  async dispose(): Promise<void> {
    this.#disposed = true;
    this.#disposeController.abort('disposed');
    const process = this.#process;
    this.#process = undefined;
    if (process) await process.stop(this.#options.graceMs);
  }

  async #ensureProcess(ctx: SessionContext): Promise<LongLivedProcess> {
    if (this.#process?.alive) return this.#process;
    const holder: { process?: LongLivedProcess } = {};
    const current = () => (this.#turn && this.#turn.process === holder.process ? this.#turn : undefined);
    const process = await LongLivedProcess.start({
      ...sharedProgramLaunch(this.#options, ctx),
      onStdoutLine: (line) => current()?.stdout(line),
      onStderrLine: (line) => current()?.stderr(line),
      onStdoutOverflow: (bytes) => current()?.overflow(bytes),
      onExit: () => {
        if (this.#process === holder.process) this.#process = undefined;
      },
    });
    holder.process = process;
    process.unref();
    this.#process = process;
    return process;
  }

  #takeTurn(
    process: LongLivedProcess,
    ctx: SessionContext,
    stopSignal: AbortSignal,
    fresh: boolean,
  ): Promise<SessionOutcome> {
    const { quietMs, startupMs, graceMs } = this.#options;
    const state = initTextOutputState(ctx.debug);
    const emitAll = (drafts: EventDraft[]) => {
      for (const draft of drafts) ctx.emit(draft);
    };
    return new Promise<SessionOutcome>((resolve) => {
      let settled = false;
      let stopping = false;
      let quiet: NodeJS.Timeout | undefined;
      let heard = false;
      const finish = (outcome: SessionOutcome, after: EventDraft[] = []) => {
        if (settled) return;
        settled = true;
        clearTimeout(quiet);
        stopSignal.removeEventListener('abort', onStop);
        if (this.#turn === turn) this.#turn = undefined;
        emitAll(closeTextMessage(state));
        emitAll(after);
        process.unref();
        resolve(outcome);
      };
      const arm = () => {
        if (settled) return;
        clearTimeout(quiet);
        const window = fresh && !heard ? Math.max(startupMs, quietMs) : quietMs;
        quiet = setTimeout(() => finish({ status: 'completed' }), window);
      };
      const armAfterOutput = () => {
        heard = true;
        arm();
      };
      const turn: Turn = {
        process,
        stdout: (line) => {
          emitAll(textLineDrafts(line, state));
          armAfterOutput();
        },
        stderr: (line) => {
          ctx.emit({ type: 'log', source: 'stderr', line });
          armAfterOutput();
        },
        overflow: (bytes) => {
          ctx.emit({
            type: 'error',
            code: 'line_too_long',
            message: `dropped a stdout line of ${bytes} bytes (over the line limit)`,
            recoverable: true,
          });
          armAfterOutput();
        },
      };
      const onExit = (info: ExitInfo) => {
        if (settled || stopping) return;
        if (info.exitCode === 0) {
          finish({ status: 'completed', message: `${process.command} exited` });
          return;
        }
        const how = info.signal ? `killed by ${info.signal}` : `exited with code ${info.exitCode}`;
        finish({ status: 'failed', reason: 'crashed', message: `${process.command} ${how}` }, [
          { type: 'crash', exitCode: info.exitCode, signal: info.signal, stderr: process.stderrTail.toString() },
        ]);
      };
      const onStop = () => {
        if (settled || stopping) return;
        stopping = true;
        // Detach first: whatever the dying program prints belongs to no run.
        if (this.#turn === turn) this.#turn = undefined;
        clearTimeout(quiet);
        const reason: unknown = stopSignal.reason;
        const message = `stopped (${typeof reason === 'string' ? reason : 'aborted'})`;
        process.stop(graceMs).then(
          () => finish({ status: 'failed', message }),
          () => finish({ status: 'failed', message }),
        );
      };
      this.#turn = turn;
      process.ref();
      if (stopSignal.aborted) {
        onStop();
        return;
      }
      stopSignal.addEventListener('abort', onStop, { once: true });
      // Every line has been delivered when `exited` settles (it waits for the pipes to drain).
      process.exited.then(onExit, () => undefined);
      process.writeLine(ctx.request.prompt).then(arm, (error: unknown) => {
        // A program that died before it read the prompt ends the turn through `onExit`.
        if (process.alive) {
          const message = `cannot write to ${process.command}: ${(error as Error).message}`;
          finish({ status: 'failed', message }, [
            { type: 'error', code: 'stdin_blocked', message, recoverable: false },
          ]);
        }
      });
    });
  }
}

/** Resolves when `promise` settles or `signal` aborts, whichever is first. */
function untilSettledOrAborted(promise: Promise<unknown>, signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.resolve();
  return new Promise<void>((resolve) => {
    const onAbort = () => resolve();
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      () => {
        signal.removeEventListener('abort', onAbort);
        resolve();
      },
      () => {
        signal.removeEventListener('abort', onAbort);
        resolve();
      },
    );
  });
}

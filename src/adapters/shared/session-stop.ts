import type { AgentSession, SessionOutcome, ShutdownReason } from '../../core/adapter/index.ts';

/**
 * The stop of a session adapter's run, in one place: the run's abort and the core's `stop(reason)`
 * both abort `signal` (the first reason is kept), and `session(run)` gives the `AgentSession` whose
 * `stop` aborts and then waits for the run to settle.
 */
export class SessionStop {
  readonly #controller = new AbortController();
  readonly #runSignal: AbortSignal;
  readonly #onAbort = () => this.request('aborted');
  #reason: string | undefined;

  constructor(runSignal: AbortSignal) {
    this.#runSignal = runSignal;
    runSignal.addEventListener('abort', this.#onAbort, { once: true });
  }

  /** Aborted once the run is to stop. */
  get signal(): AbortSignal {
    return this.#controller.signal;
  }

  get stopped(): boolean {
    return this.#controller.signal.aborted;
  }

  /** The outcome of a run that was stopped: `stopped: <first reason>`. */
  outcome(extra: Partial<SessionOutcome> = {}): SessionOutcome {
    return { status: 'failed', message: `stopped: ${this.#reason ?? 'aborted'}`, ...extra };
  }

  /** Stops the run; the first reason given is the one kept. */
  request(reason: ShutdownReason | 'aborted'): void {
    this.#reason ??= reason;
    this.#controller.abort();
  }

  /** The session of `run`: done when it settles (its listener on the run's signal then removed). */
  session(run: Promise<SessionOutcome>): AgentSession {
    const done = run.finally(() => this.#runSignal.removeEventListener('abort', this.#onAbort));
    done.catch(() => undefined);
    return {
      done,
      stop: async (reason) => {
        this.request(reason);
        await done.catch(() => undefined);
      },
    };
  }
}

/**
 * The terminal-event rule, for every kind of attempt: once the agent has said it is done (see
 * `TranslatorState.terminal`, `SessionContext.terminalReached`) it gets `terminalGraceMs` to end by
 * itself; then `onGraceOver` stops what is left (a process's graceful stop, a session's abort), and
 * the run ends as the agent said. A stop the core asked for before the agent said it is done wins.
 */
export class TerminalGrace {
  /** How long what is left may take to go once the grace is over (at most the run's grace). */
  readonly settleMs: number;
  readonly #graceMs: number;
  readonly #onGraceOver: () => void;
  #reached = false;
  #stopped = false;
  #timer: NodeJS.Timeout | undefined;

  constructor(options: { terminalGraceMs: number; graceMs: number; onGraceOver: () => void }) {
    this.#graceMs = options.terminalGraceMs;
    this.settleMs = Math.min(options.terminalGraceMs, options.graceMs);
    this.#onGraceOver = options.onGraceOver;
  }

  /** True once the agent said it is done (before any stop of the core). */
  get reached(): boolean {
    return this.#reached;
  }

  /** The agent said it is done: starts the grace, once, unless a stop came first. Returns whether it did. */
  reach(): boolean {
    if (this.#reached || this.#stopped) return false;
    this.#reached = true;
    this.#timer = setTimeout(this.#onGraceOver, this.#graceMs);
    return true;
  }

  /** The core is stopping the attempt (or it is over): no grace starts after this, a running one ends. */
  stop(): void {
    this.#stopped = true;
    if (this.#timer) clearTimeout(this.#timer);
  }
}

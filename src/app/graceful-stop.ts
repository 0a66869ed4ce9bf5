/** The signals a container runtime, systemd or a terminal send to stop the app. */
export const STOP_SIGNALS: readonly NodeJS.Signals[] = ['SIGTERM', 'SIGINT'];

/** Docker and Kubernetes give 10 s (`stop_grace_period`, `terminationGracePeriodSeconds` is 30) before SIGKILL. */
export const DEFAULT_STOP_GRACE_MS = 8_000;

/** The part of `process` that `installGracefulStop` uses (tests pass an EventEmitter). */
export type SignalTarget = Pick<NodeJS.EventEmitter, 'on' | 'off'>;

/** Options of `installGracefulStop`. */
export interface GracefulStopOptions {
  /** Stops the app: no new work, runs in flight concluded, store closed. */
  stop: () => Promise<void>;
  log: (line: string) => void;
  /** How long `stop` may take before the process exits anyway (status 1). Default `DEFAULT_STOP_GRACE_MS`. */
  graceMs?: number;
  /** Default `process.exit`. */
  exit?: (code: number) => void;
  /** Default `process`. */
  target?: SignalTarget;
  signals?: readonly NodeJS.Signals[];
}

/**
 * Makes SIGTERM and SIGINT stop the app before the process exits: `stop()` runs (at most `graceMs`),
 * then the process exits with status 0, or 1 when `stop` failed or did not finish in time (what is
 * left then is taken over by lease recovery). A second signal exits at once with status 1.
 *
 * `probot run` adds a SIGINT handler of its own that closes the HTTP server and exits at once, which
 * would cut the stop short: handlers for these signals added after this one are removed. Returns a
 * function that uninstalls everything.
 */
export function installGracefulStop(options: GracefulStopOptions): () => void {
  const target: SignalTarget = options.target ?? process;
  const exit = options.exit ?? ((code: number) => process.exit(code));
  const signals = options.signals ?? STOP_SIGNALS;
  const graceMs = options.graceMs ?? DEFAULT_STOP_GRACE_MS;
  let stopping = false;

  const onSignal = (signal: NodeJS.Signals): void => {
    if (stopping) {
      options.log(`agent-mux: ${signal} again while stopping; exiting now`);
      exit(1);
      return;
    }
    stopping = true;
    const startedAt = Date.now();
    options.log(`agent-mux: ${signal} received; stopping (runs in flight are cancelled, at most ${graceMs} ms)`);
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<'late'>((resolve) => {
      timer = setTimeout(() => resolve('late'), graceMs);
    });
    Promise.race([options.stop().then(() => 'stopped' as const), late]).then(
      (result) => {
        clearTimeout(timer);
        if (result === 'late') {
          options.log(`agent-mux: the stop did not finish within ${graceMs} ms; exiting, lease recovery takes over`);
          exit(1);
        } else {
          options.log(`agent-mux: stopped in ${Date.now() - startedAt} ms`);
          exit(0);
        }
      },
      (error: unknown) => {
        clearTimeout(timer);
        options.log(`agent-mux: the stop failed: ${error instanceof Error ? error.message : String(error)}`);
        exit(1);
      },
    );
  };

  const onNewListener = (event: string | symbol, listener: (...args: unknown[]) => void): void => {
    if (typeof event !== 'string' || !signals.includes(event as NodeJS.Signals) || listener === onSignal) return;
    // `newListener` fires before the listener is added: remove it right after.
    queueMicrotask(() => target.off(event, listener));
  };

  for (const signal of signals) target.on(signal, onSignal);
  target.on('newListener', onNewListener);
  return () => {
    for (const signal of signals) target.off(signal, onSignal);
    target.off('newListener', onNewListener);
  };
}

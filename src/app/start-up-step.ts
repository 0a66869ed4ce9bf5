import type { AppReadiness } from './app-readiness.ts';
import type { StartStepOptions } from './retry-start-step.ts';

/** The options of one start-up step for `retryStartStep`: what it is called, how a failure is described. */
export type StartUpStep = (name: string, describe: (error: unknown) => string) => StartStepOptions;

/** Options of `startUpStep`: what every step of one start-up shares. */
export interface StartUpStepOptions {
  /** How long start-up may take from now (ms); 0 or less: its steps are retried for ever. */
  timeoutMs: number;
  /** Where each failed attempt is reported. */
  warn: (line: string) => void;
  /** Set to not ready, with the reason, after each failed attempt. */
  readiness: AppReadiness;
  policy?: StartStepOptions['policy'];
  /** The app's stop: it ends the retries. */
  signal: AbortSignal;
}

/** The steps of one start-up: each retried until `timeoutMs` from now, its failures shown by the readiness. */
export function startUpStep(options: StartUpStepOptions): StartUpStep {
  const giveUpAt = options.timeoutMs > 0 ? Date.now() + options.timeoutMs : undefined;
  return (name, describe) => ({
    step: name,
    describe,
    warn: options.warn,
    onFailure: (reason) => options.readiness.set(false, `${name} failed: ${reason}`),
    giveUpAt,
    policy: options.policy,
    signal: options.signal,
  });
}

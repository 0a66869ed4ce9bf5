import type { SpawnPlan } from '../adapter/index.ts';
import type { FenceOptions } from '../sandbox/index.ts';
import { probeSandbox } from './probe-sandbox.ts';
import type { RunEmitter } from './run-emitter.ts';

/** The agent's own sandbox probe for one attempt (`SpawnPlan.sandboxProbe`). */
export interface SandboxCheck {
  /** What a failed probe said, when it must stop the run before the agent starts (`fail`); else undefined at once. */
  readonly blocking: Promise<string | undefined>;
  /** Once the agent started: emits the `sandbox_unavailable` notice, now (`fail`'s probe is done) or when the probe ends. */
  started(emitter: RunEmitter): void;
  /** Before the attempt ends: waits for the probe (and its notice), so that it outlives neither the run nor its events. */
  end(): Promise<void>;
}

/**
 * Starts the probe. With `fail` the agent waits for it (fail closed: a broken sandbox starts
 * nothing). With `warn` the only consequence is a notice, so the probe (a sandboxed `true`, about
 * 0.2 s for Codex) runs beside the agent's own start instead of before it, and its notice is
 * emitted when it ends. An aborted run (`signal`) stops the probe and says nothing of it.
 */
export function startSandboxCheck(
  plan: SpawnPlan,
  run: { env: Record<string, string>; cwd: string; workspace: string; fence?: FenceOptions },
  mode: 'warn' | 'fail',
  signal: AbortSignal,
): SandboxCheck {
  const probing = probeSandbox(plan, { ...run, signal });
  let reported: Promise<void> | undefined;
  return {
    blocking: mode === 'fail' ? probing : Promise.resolve(undefined),
    started(emitter) {
      reported = probing.then((problem) => {
        if (problem !== undefined && !signal.aborted) {
          emitter.emit({ type: 'notice', code: 'sandbox_unavailable', message: problem });
        }
      });
    },
    async end() {
      await (reported ?? probing);
    },
  };
}

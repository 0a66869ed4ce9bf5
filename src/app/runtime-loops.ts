import { setImmediate as nextTurn } from 'node:timers/promises';
import { errorText } from '../core/errors/error-text.ts';

/** The app runtime's background loops: each repeats a step, idling between steps that found nothing to do. */
export interface RuntimeLoops {
  /** Lets loops run (again, after `halt`). */
  open(): void;
  /**
   * Starts a loop of `step` (true: it was busy, the next one follows at once; false: wait `waitMs`).
   * A step that throws is logged, prefixed with `what`, and counts as idle.
   */
  add(what: string, step: () => Promise<boolean>, waitMs: number): void;
  /** Ends the loops after their current step, and wakes the idle ones. */
  halt(): void;
  /** Waits for the loops halted to end. */
  settled(): Promise<void>;
}

export function createRuntimeLoops(log: (line: string) => void): RuntimeLoops {
  let stopping = false;
  let wake = new AbortController();
  const loops: Promise<void>[] = [];

  const idle = (ms: number) =>
    new Promise<void>((resolve) => {
      if (stopping) return resolve();
      const timer = setTimeout(resolve, ms);
      wake.signal.addEventListener(
        'abort',
        () => {
          clearTimeout(timer);
          resolve();
        },
        { once: true },
      );
    });

  const guard = async (what: string, step: () => Promise<boolean>): Promise<boolean> => {
    try {
      return await step();
    } catch (error) {
      log(`${what}: ${errorText(error)}`);
      return false;
    }
  };

  const loop = async (what: string, step: () => Promise<boolean>, waitMs: number) => {
    while (!stopping) {
      const busy = await guard(what, step);
      // A busy loop still yields a turn of the event loop, so webhooks are acknowledged meanwhile.
      if (busy) await nextTurn();
      else await idle(waitMs);
    }
  };

  return {
    open() {
      stopping = false;
      wake = new AbortController();
    },
    add(what, step, waitMs) {
      loops.push(loop(what, step, waitMs));
    },
    halt() {
      stopping = true;
      wake.abort();
    },
    async settled() {
      await Promise.all(loops.splice(0));
    },
  };
}

import { setImmediate as nextTurn } from 'node:timers/promises';
import { type DispatchDeps, type DispatchResult, dispatchEvent } from './dispatch-event.ts';
import { DEFAULT_EVENT_LEASE_MS, type StoredEvent } from './store/run-store.ts';

/** Options of `createDispatchLoop`. */
export interface DispatchLoopOptions {
  /** Events dispatched at once, each of another issue (events of one issue go one at a time, in order). Default 8. */
  concurrency?: number;
  /** How long a taken event is leased: after a crash it is taken again once this expired. Default 60 000 ms. */
  leaseMs?: number;
  /** How long a busy turn waits for a dispatch in flight before it looks for new events. Default 50 ms. */
  pollMs?: number;
}

/** The dispatcher of one process: a bounded pool over the store's leased events. */
export interface DispatchLoop {
  /** Takes and dispatches one event, awaited; undefined when none may be taken now. */
  one(): Promise<DispatchResult | undefined>;
  /** Dispatches every event that may be taken (up to `concurrency` at once) until none is left. */
  pending(): Promise<DispatchResult[]>;
  /** One turn of the background loop: fills the pool; false when there was nothing to do (the caller idles). */
  step(): Promise<boolean>;
  /** Waits for the dispatches in flight. */
  drain(): Promise<void>;
}

/**
 * Reads recorded webhooks and dispatches them (`dispatchEvent`), several installations and issues at
 * once. An event is leased, not deleted, when taken; it is deleted with its outcome (a queued run, an
 * answer) in one transaction, or after an outcome that writes nothing. A process killed at any point
 * in between leaves the event to be taken again when its lease expires, and the store queues at most
 * one run per delivery. An event whose dispatch throws is logged and dropped (not retried).
 */
export function createDispatchLoop(deps: DispatchDeps, options: DispatchLoopOptions = {}): DispatchLoop {
  const { store, log } = deps;
  const concurrency = Math.max(1, options.concurrency ?? 8);
  const leaseMs = options.leaseMs ?? DEFAULT_EVENT_LEASE_MS;
  const pollMs = options.pollMs ?? 50;
  const active = new Set<Promise<DispatchResult>>();

  const dispatch = async (event: StoredEvent): Promise<DispatchResult> => {
    deps.checkpoint?.('after-take');
    // Each event in a turn of the event loop of its own, after a burst of webhooks being received: a
    // backlog whose reads are all cached would otherwise be dispatched in one stretch of microtasks,
    // holding every webhook acknowledgement.
    await deps.quiet?.();
    await nextTurn();
    let result: DispatchResult;
    try {
      result = await dispatchEvent(deps, event);
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      log(`delivery ${event.deliveryId} (${event.name}) failed: ${reason}`);
      result = { kind: 'ignored', reason };
    }
    deps.checkpoint?.('after-dispatch');
    await store.completeEvent(event.deliveryId);
    return result;
  };

  const start = (event: StoredEvent): Promise<DispatchResult> => {
    const running = dispatch(event);
    active.add(running);
    const forget = () => active.delete(running);
    running.then(forget, forget);
    return running;
  };

  const fill = async (): Promise<Promise<DispatchResult>[]> => {
    const started: Promise<DispatchResult>[] = [];
    while (active.size < concurrency) {
      const event = await store.takeEvent(leaseMs);
      if (event === undefined) break;
      started.push(start(event));
    }
    return started;
  };

  return {
    async one() {
      const event = await store.takeEvent(leaseMs);
      return event === undefined ? undefined : start(event);
    },
    async pending() {
      const results: DispatchResult[] = [];
      for (;;) {
        const started = await fill();
        if (started.length === 0 && active.size === 0) return results;
        const settled = started.length > 0 ? await Promise.all(started) : [await Promise.race(active)];
        results.push(...settled);
        // A dispatch started by `step` and awaited here is counted once, by whichever awaited it first.
      }
    },
    async step() {
      const started = await fill();
      if (started.length > 0) return true;
      if (active.size === 0) return false;
      await Promise.race([...active, new Promise((resolve) => setTimeout(resolve, pollMs))]);
      return true;
    },
    async drain() {
      await Promise.allSettled([...active]);
    },
  };
}

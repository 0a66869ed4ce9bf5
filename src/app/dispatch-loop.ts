import { setImmediate as nextTurn } from 'node:timers/promises';
import { type DispatchDeps, type DispatchResult, dispatchEvent } from './dispatch-event.ts';
import { DEFAULT_EVENT_LEASE_MS, type StoredEvent } from './store/run-store.ts';
import { isTransientError } from './store/transient-error.ts';

/**
 * How long an event waits before it is dispatched again after a transient failure, per failure:
 * 1 s, 5 s, 15 s, 30 s, 60 s (about two minutes in all, past a database restart or failover), then
 * it is dropped and the log says so.
 */
export const DISPATCH_RETRY_DELAYS_MS: readonly number[] = [1_000, 5_000, 15_000, 30_000, 60_000];

/** Options of `createDispatchLoop`. */
export interface DispatchLoopOptions {
  /** Events dispatched at once, each of another issue (events of one issue go one at a time, in order). Default 8. */
  concurrency?: number;
  /** How long a taken event is leased: after a crash it is taken again once this expired. Default 60 000 ms. */
  leaseMs?: number;
  /** How long a busy turn waits for a dispatch in flight before it looks for new events. Default 50 ms. */
  pollMs?: number;
  /** The waits before each new dispatch of an event whose dispatch failed transiently. Default `DISPATCH_RETRY_DELAYS_MS`. */
  retryDelaysMs?: readonly number[];
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
 * one run per delivery. An event whose dispatch throws a transient error (the database connection
 * ended, GitHub answered 5xx: `isTransientError`) is put back and dispatched again after a wait
 * (`retryDelaysMs`), so no mention or approval is lost to a database restart; after the last wait, or
 * for any other error, it is logged and dropped.
 */
export function createDispatchLoop(deps: DispatchDeps, options: DispatchLoopOptions = {}): DispatchLoop {
  const { store, log } = deps;
  const concurrency = Math.max(1, options.concurrency ?? 8);
  const leaseMs = options.leaseMs ?? DEFAULT_EVENT_LEASE_MS;
  const pollMs = options.pollMs ?? 50;
  const retryDelaysMs = options.retryDelaysMs ?? DISPATCH_RETRY_DELAYS_MS;
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
      const failed = event.attempts ?? 0;
      const delay = isTransientError(error) ? retryDelaysMs[failed] : undefined;
      if (delay !== undefined && (await putBack(event, delay, reason))) {
        return { kind: 'ignored', reason: `${reason} (dispatched again in ${delay / 1000} s)` };
      }
      const tries = failed + 1;
      log(
        `delivery ${event.deliveryId} (${event.name}) failed${tries > 1 ? ` ${tries} times` : ''}: ${reason}; dropped`,
      );
      result = { kind: 'ignored', reason };
    }
    deps.checkpoint?.('after-dispatch');
    await store.completeEvent(event.deliveryId);
    return result;
  };

  /** Puts the event back to be taken after `delay`; false when even that failed (its lease then expires, and it is taken again). */
  const putBack = async (event: StoredEvent, delay: number, reason: string): Promise<boolean> => {
    const attempt = (event.attempts ?? 0) + 1;
    try {
      await store.retryEvent(event.deliveryId, Date.now() + delay);
      log(
        `delivery ${event.deliveryId} (${event.name}) failed (attempt ${attempt}): ${reason}; dispatched again in ${delay / 1000} s`,
      );
    } catch (putBackError) {
      const why = putBackError instanceof Error ? putBackError.message : String(putBackError);
      log(
        `delivery ${event.deliveryId} (${event.name}) failed (attempt ${attempt}): ${reason}; kept until its lease ends (${why})`,
      );
    }
    return true;
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

/** Frees a slot taken from a pool; calling it again does nothing. */
export type ReleaseSlot = () => void;

export interface SessionPool {
  /** Waits, in order of arrival, for a free slot. Rejects when `signal` aborts first. */
  acquire(signal?: AbortSignal): Promise<ReleaseSlot>;
  /** Slots in use now. */
  readonly active: number;
  /** Runs waiting for a slot now. */
  readonly waiting: number;
}

interface Waiter {
  grant: (release: ReleaseSlot) => void;
}

/** A first-come-first-served counting semaphore: at most `size` sessions open at once. */
export function createSessionPool(size: number): SessionPool {
  if (!Number.isInteger(size) || size < 1) throw new RangeError(`pool size must be a positive integer, got ${size}`);
  let active = 0;
  const queue: Waiter[] = [];

  const makeRelease = (): ReleaseSlot => {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = queue.shift();
      if (next) next.grant(makeRelease());
      else active--;
    };
  };

  return {
    get active() {
      return active;
    },
    get waiting() {
      return queue.length;
    },
    acquire(signal) {
      if (signal?.aborted) return Promise.reject(abortError(signal));
      if (active < size) {
        active++;
        return Promise.resolve(makeRelease());
      }
      return new Promise<ReleaseSlot>((resolve, reject) => {
        const onAbort = () => {
          const index = queue.indexOf(waiter);
          if (index >= 0) queue.splice(index, 1);
          reject(abortError(signal));
        };
        const waiter: Waiter = {
          grant: (release) => {
            signal?.removeEventListener('abort', onAbort);
            resolve(release);
          },
        };
        queue.push(waiter);
        signal?.addEventListener('abort', onAbort, { once: true });
      });
    },
  };
}

function abortError(signal: AbortSignal | undefined): Error {
  return new Error('aborted while waiting for a free session of the remote', { cause: signal?.reason });
}

import type { Child } from './child.ts';

/** A program's stdin as the run writes it, remembering its last write. */
export interface TrackedStdin {
  /** Writes as `Child.write` does. */
  write(data: string): Promise<void>;
  /**
   * Settles true once everything written so far is handed to the OS (in the program's pipe, whether
   * or not it reads), false when a write failed (stdin closed, the program gone).
   */
  flushed(): Promise<boolean>;
}

/** Tracks the writes to `child`'s stdin (they are handed to the OS in order: the last one settles last). */
export function trackStdin(child: Pick<Child, 'write'>): TrackedStdin {
  let last: Promise<boolean> = Promise.resolve(true);
  return {
    write(data) {
      const written = child.write(data);
      last = written.then(
        () => true,
        () => false,
      );
      return written;
    },
    flushed: () => last,
  };
}

import type { ExitInfo } from '../adapter/index.ts';

/** A started program, whether on pipes or on a pseudo-terminal. */
export interface Child {
  readonly pid: number;
  /** Receives stdout (with a PTY: the merged terminal output). */
  onStdout(listener: (chunk: Uint8Array | string) => void): void;
  onStderr(listener: (chunk: Uint8Array | string) => void): void;
  /** Writes to stdin; resolves when the data is handed to the OS. */
  write(data: string): Promise<void>;
  /** Bytes written but not yet taken by the program. */
  pendingStdinBytes(): number;
  closeStdin(): void;
  pause(): void;
  resume(): void;
  /** Settles when the program has exited. */
  readonly exited: Promise<ExitInfo>;
  /** Settles when stdout and stderr have ended (a grandchild may hold them open after exit). */
  readonly drained: Promise<void>;
}

import type { Readable, Writable } from 'node:stream';

/** What a command may touch: streams, environment, working directory. Tests pass their own. */
export interface CliIO {
  stdout: Writable & { isTTY?: boolean; columns?: number };
  stderr: Writable & { isTTY?: boolean };
  stdin: Readable & { isTTY?: boolean };
  env: Record<string, string | undefined>;
  cwd: string;
  /** Where SIGINT/SIGTERM come from; the real process by default. */
  signals?: NodeJS.EventEmitter;
}

export const processIO = (): CliIO => ({
  stdout: process.stdout,
  stderr: process.stderr,
  stdin: process.stdin,
  env: process.env,
  cwd: process.cwd(),
  signals: process,
});

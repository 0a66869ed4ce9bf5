import type { ExitInfo } from '../adapter/index.ts';
import { LineDecoder } from '../decode/line-decoder.ts';
import { terminateGroup, trackGroup, untrackGroup } from './process-group.ts';
import { settleWithin } from './settle-within.ts';
import { type DetachedProcess, spawnDetached } from './spawn-detached.ts';
import { StderrTail } from './stderr-tail.ts';

export interface LongLivedProcessOptions {
  command: string;
  args: readonly string[];
  cwd: string;
  /** The whole environment (nothing else is inherited). */
  env: Record<string, string>;
  /** One non-blank stdout line, without its newline. */
  onStdoutLine: (line: string) => void;
  /** One non-blank stderr line (also kept in `stderrTail`). */
  onStderrLine: (line: string) => void;
  /** A stdout line longer than the decoder's limit was dropped. */
  onStdoutOverflow?: (droppedBytes: number) => void;
  /** Once, after the program exited and its pipes drained (or 2 s passed): every line has been delivered. */
  onExit: (exit: ExitInfo) => void;
}

/** How long a grandchild holding the pipes open may delay `onExit`. */
const DRAIN_WAIT_MS = 2000;

/**
 * A program kept running across runs (persistent generic-cli, the external adapter process), in its own
 * process group that is tracked so that it dies with this process, decoded into lines. Unlike the
 * per-run child of `runProcessAttempt`, it can be `unref`ed while idle so that it never keeps Node alive.
 */
export class LongLivedProcess {
  readonly pid: number;
  readonly command: string;
  readonly stderrTail = new StderrTail();
  /** Settles after `onExit` has been called. */
  readonly exited: Promise<ExitInfo>;
  readonly #child: DetachedProcess;
  #alive = true;

  private constructor(options: LongLivedProcessOptions, child: DetachedProcess) {
    this.command = options.command;
    this.pid = child.pid;
    this.#child = child;
    this.exited = this.#supervise(options);
  }

  /** Starts the program. Rejects with `SpawnError` when it cannot be started. */
  static async start(options: LongLivedProcessOptions): Promise<LongLivedProcess> {
    const child = await spawnDetached(options.command, options.args, { cwd: options.cwd, env: options.env });
    trackGroup(child.pid);
    return new LongLivedProcess(options, child);
  }

  /** Decodes the output into lines until the program is gone, then reports its exit. */
  async #supervise(options: LongLivedProcessOptions): Promise<ExitInfo> {
    const { subprocess, pid } = this.#child;
    const stdout = new LineDecoder({ onLine: options.onStdoutLine, onOverflow: options.onStdoutOverflow });
    const stderr = new LineDecoder({
      onLine: (line) => {
        this.stderrTail.push(line);
        options.onStderrLine(line);
      },
    });
    subprocess.stdout.on('data', (chunk: Uint8Array) => guard(() => stdout.push(chunk)));
    subprocess.stderr.on('data', (chunk: Uint8Array) => guard(() => stderr.push(chunk)));
    const info = await this.#child.exited;
    this.#alive = false;
    await settleWithin(this.#child.drained, DRAIN_WAIT_MS, undefined);
    guard(() => stdout.end());
    guard(() => stderr.end());
    // Nothing of the group may outlive its leader.
    await terminateGroup(pid, 500);
    untrackGroup(pid);
    guard(() => options.onExit(info));
    return info;
  }

  /** True until the program has exited. */
  get alive(): boolean {
    return this.#alive;
  }

  /** Writes one line (a newline is added). Rejects when stdin is closed or the program is gone. */
  writeLine(line: string): Promise<void> {
    if (!this.#alive) return Promise.reject(new Error(`${this.command} is not running`));
    return this.#child.write(`${line}\n`);
  }

  /** Ends the whole group: SIGTERM, `graceMs`, SIGKILL. Resolves once `onExit` has run. */
  async stop(graceMs: number): Promise<ExitInfo> {
    this.#child.subprocess.stdin.end();
    await terminateGroup(this.pid, graceMs);
    return this.exited;
  }

  /** Lets Node exit while this program runs (it is still killed at exit). */
  unref(): void {
    this.#child.subprocess.nodeChildProcess.unref();
    for (const stream of this.#streams()) stream.unref?.();
  }

  /** Keeps Node running while this program runs. */
  ref(): void {
    this.#child.subprocess.nodeChildProcess.ref();
    for (const stream of this.#streams()) stream.ref?.();
  }

  /** Child pipes are `net.Socket`s, which have `ref`/`unref`; other streams do not. */
  #streams(): Refable[] {
    const { stdin, stdout, stderr } = this.#child.subprocess;
    return [stdin, stdout, stderr] as unknown[] as Refable[];
  }
}

interface Refable {
  ref?: () => unknown;
  unref?: () => unknown;
}

/** A callback's failure must not become an uncaught exception in a stream handler. */
function guard(fn: () => void): void {
  try {
    fn();
  } catch {
    // The callbacks are ours and report their own problems; a throw here would only crash the host.
  }
}

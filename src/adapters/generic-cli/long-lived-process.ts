import { once } from 'node:events';
import { execa } from 'execa';
import type { ExitInfo } from '../../core/adapter/index.ts';
import { LineDecoder } from '../../core/decode/line-decoder.ts';
import { SpawnError } from '../../core/errors/index.ts';
import { terminateGroup, trackGroup, untrackGroup } from '../../core/run/process-group.ts';
import { StderrTail } from '../../core/run/stderr-tail.ts';

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
 * process group (execa `detached: true`) that is tracked so that it dies with this process, decoded into
 * lines. Unlike the core's per-run child, it can be `unref`ed while idle so that it never keeps Node alive.
 */
export class LongLivedProcess {
  readonly pid: number;
  readonly command: string;
  readonly stderrTail = new StderrTail();
  /** Settles after `onExit` has been called. */
  readonly exited: Promise<ExitInfo>;
  readonly #subprocess: ReturnType<typeof spawn>;
  #alive = true;

  private constructor(command: string, pid: number, subprocess: ReturnType<typeof spawn>, exited: Promise<ExitInfo>) {
    this.command = command;
    this.pid = pid;
    this.#subprocess = subprocess;
    this.exited = exited;
  }

  /** Starts the program. Rejects with `SpawnError` when it cannot be started. */
  static async start(options: LongLivedProcessOptions): Promise<LongLivedProcess> {
    const subprocess = spawn(options);
    subprocess.catch(() => undefined);
    const node = subprocess.nodeChildProcess;
    try {
      await new Promise<void>((resolve, reject) => {
        node.once('spawn', () => resolve());
        node.once('error', (error) => reject(error));
      });
    } catch (error) {
      throw new SpawnError(options.command, (error as Error).message, { cause: error });
    }
    const pid = subprocess.pid;
    if (pid === undefined) throw new SpawnError(options.command, 'no process id');
    trackGroup(pid);

    let self: LongLivedProcess | undefined;
    const stdout = new LineDecoder({ onLine: options.onStdoutLine, onOverflow: options.onStdoutOverflow });
    const stderr = new LineDecoder({
      onLine: (line) => {
        self?.stderrTail.push(line);
        options.onStderrLine(line);
      },
    });
    subprocess.stdin.on('error', () => undefined); // EPIPE after the program died: reported through onExit.
    subprocess.stdout.on('data', (chunk: Uint8Array) => guard(() => stdout.push(chunk)));
    subprocess.stderr.on('data', (chunk: Uint8Array) => guard(() => stderr.push(chunk)));
    const exit = new Promise<ExitInfo>((resolve) => {
      node.once('exit', (code, signal) => resolve({ exitCode: code, signal }));
    });
    const drained = Promise.all([
      once(subprocess.stdout, 'close').catch(() => undefined),
      once(subprocess.stderr, 'close').catch(() => undefined),
    ]);
    const exited = (async () => {
      const info = await exit;
      if (self) self.#alive = false;
      await Promise.race([drained, new Promise((resolve) => setTimeout(resolve, DRAIN_WAIT_MS).unref())]);
      guard(() => stdout.end());
      guard(() => stderr.end());
      // Nothing of the group may outlive its leader.
      await terminateGroup(pid, 500);
      untrackGroup(pid);
      guard(() => options.onExit(info));
      return info;
    })();
    self = new LongLivedProcess(options.command, pid, subprocess, exited);
    return self;
  }

  /** True until the program has exited. */
  get alive(): boolean {
    return this.#alive;
  }

  /** Writes one line (a newline is added). Rejects when stdin is closed or the program is gone. */
  writeLine(line: string): Promise<void> {
    const stdin = this.#subprocess.stdin;
    return new Promise<void>((resolve, reject) => {
      if (!this.#alive || stdin.destroyed || stdin.writableEnded) {
        reject(new Error(`${this.command} is not running`));
        return;
      }
      stdin.write(`${line}\n`, (error) => (error ? reject(error) : resolve()));
    });
  }

  /** Ends the whole group: SIGTERM, `graceMs`, SIGKILL. Resolves once `onExit` has run. */
  async stop(graceMs: number): Promise<ExitInfo> {
    this.#subprocess.stdin.end();
    await terminateGroup(this.pid, graceMs);
    return this.exited;
  }

  /** Lets Node exit while this program runs (it is still killed at exit). */
  unref(): void {
    this.#subprocess.nodeChildProcess.unref();
    for (const stream of [this.#subprocess.stdin, this.#subprocess.stdout, this.#subprocess.stderr])
      unrefStream(stream);
  }

  /** Keeps Node running while this program runs. */
  ref(): void {
    this.#subprocess.nodeChildProcess.ref();
    for (const stream of [this.#subprocess.stdin, this.#subprocess.stdout, this.#subprocess.stderr]) refStream(stream);
  }
}

function spawn(options: LongLivedProcessOptions) {
  return execa(options.command, [...options.args], {
    cwd: options.cwd,
    env: options.env,
    extendEnv: false,
    detached: true,
    cleanup: false,
    buffer: false,
    reject: false,
    stdin: 'pipe',
    stdout: 'pipe',
    stderr: 'pipe',
    encoding: 'buffer',
    forceKillAfterDelay: false,
    stripFinalNewline: false,
  });
}

/** A callback's failure must not become an uncaught exception in a stream handler. */
function guard(fn: () => void): void {
  try {
    fn();
  } catch {
    // The callbacks are ours and report their own problems; a throw here would only crash the host.
  }
}

/** Child pipes are `net.Socket`s, which have `ref`/`unref`; other streams do not. */
interface Refable {
  ref?: () => unknown;
  unref?: () => unknown;
}

function unrefStream(stream: unknown): void {
  (stream as Refable).unref?.();
}

function refStream(stream: unknown): void {
  (stream as Refable).ref?.();
}

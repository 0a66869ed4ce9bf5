import type { ExitInfo, LaunchContext } from '../../../core/adapter/index.ts';
import type { EventDraft } from '../../../core/events/index.ts';
import { LongLivedProcess } from '../../../core/run/long-lived-process.ts';
import { type SharedProgramSpec, sharedProgramLaunch } from '../../../core/run/shared-program-launch.ts';
import { AdapterDisposedError } from '../generic-cli/adapter-disposed-error.ts';
import { type ExternalCommand, type ExternalMessage, readExternalLine } from './external-protocol.ts';

/** What the host tells one open session. */
export interface ExternalSessionSink {
  /** A protocol message for this session. */
  message(message: ExternalMessage): void;
  /** A well-formed message of an unknown type for this session. */
  unknown(type: string, value: unknown): void;
  /** Something every open session hears: a malformed line, a stray print, the process's stderr. */
  broadcast(draft: EventDraft): void;
  /** The adapter process died on its own; the session is already detached. */
  exit(exit: ExitInfo, stderrTail: string): void;
  /** The host was disposed; the session is already detached. */
  disposed(message: string): void;
}

export interface ExternalHostOptions extends SharedProgramSpec {
  /** For messages. */
  adapterId: string;
}

interface Entry {
  sink: ExternalSessionSink;
  process: LongLivedProcess;
}

/**
 * The one adapter process of an external adapter, shared by all its runs: started by the first session
 * (and again after it died), in its own tracked process group, its stdout lines routed to sessions by
 * `session_id`. It never throws on what the process prints.
 */
export class ExternalHost {
  readonly #options: ExternalHostOptions;
  readonly #sessions = new Map<string, Entry>();
  #process: LongLivedProcess | undefined;
  #starting: Promise<LongLivedProcess> | undefined;
  #disposed = false;

  constructor(options: ExternalHostOptions) {
    this.#options = options;
  }

  /** The adapter process's pid while it runs. */
  get pid(): number | undefined {
    return this.#process?.alive ? this.#process.pid : undefined;
  }

  /** Sessions open now. */
  get sessionCount(): number {
    return this.#sessions.size;
  }

  /**
   * Registers a session, starting the process if none runs. Rejects with `SpawnError` when it cannot start,
   * `AdapterDisposedError` after `dispose()`, `TemplateError` for a bad argument template.
   */
  async attach(sessionId: string, sink: ExternalSessionSink, ctx: LaunchContext): Promise<void> {
    const process = await this.#ensureProcess(ctx);
    if (!process.alive) {
      // It died between its start and now: report it like any other death.
      sink.exit(await process.exited, process.stderrTail.toString());
      return;
    }
    this.#sessions.set(sessionId, { sink, process });
    process.ref();
  }

  /** Forgets a session: later messages for it are dropped. */
  detach(sessionId: string): void {
    const entry = this.#sessions.get(sessionId);
    if (!entry) return;
    this.#sessions.delete(sessionId);
    if (![...this.#sessions.values()].some((e) => e.process === entry.process)) entry.process.unref();
  }

  /** Sends one message to the process of the session. Rejects when the process is gone. */
  async send(command: ExternalCommand): Promise<void> {
    const process = this.#sessions.get(command.session_id)?.process ?? this.#process;
    if (!process) throw new Error('the external adapter process is not running');
    await process.writeLine(JSON.stringify(command));
  }

  /** Closes every open session, kills the process group and starts no process any more. */
  async dispose(): Promise<void> {
    this.#disposed = true;
    const process = this.#process ?? (await this.#starting?.catch(() => undefined));
    this.#process = undefined;
    const open = [...this.#sessions.entries()];
    for (const [sessionId, entry] of open) {
      this.#sessions.delete(sessionId);
      await entry.process.writeLine(JSON.stringify({ type: 'session.close', session_id: sessionId })).catch(() => {});
      entry.sink.disposed(new AdapterDisposedError(this.#options.adapterId).message);
    }
    if (process) await process.stop(this.#options.graceMs);
  }

  async #ensureProcess(ctx: LaunchContext): Promise<LongLivedProcess> {
    if (this.#disposed) throw new AdapterDisposedError(this.#options.adapterId);
    if (this.#process?.alive) return this.#process;
    this.#starting ??= this.#start(ctx).finally(() => {
      this.#starting = undefined;
    });
    return this.#starting;
  }

  async #start(ctx: LaunchContext): Promise<LongLivedProcess> {
    const holder: { process?: LongLivedProcess } = {};
    const process = await LongLivedProcess.start({
      ...sharedProgramLaunch(this.#options, ctx),
      onStdoutLine: (line) => this.#route(holder.process, line),
      onStderrLine: (line) => this.#broadcast(holder.process, { type: 'log', source: 'stderr', line }),
      onStdoutOverflow: (bytes) =>
        this.#broadcast(holder.process, {
          type: 'error',
          code: 'line_too_long',
          message: `dropped a line of ${bytes} bytes from the external adapter (over the line limit)`,
          recoverable: true,
        }),
      onExit: (info) => {
        const dead = holder.process;
        if (this.#process === dead) this.#process = undefined;
        for (const [sessionId, entry] of [...this.#sessions.entries()]) {
          if (entry.process !== dead) continue;
          this.#sessions.delete(sessionId);
          entry.sink.exit(info, dead?.stderrTail.toString() ?? '');
        }
      },
    });
    holder.process = process;
    process.unref();
    if (this.#disposed) {
      await process.stop(this.#options.graceMs);
      throw new AdapterDisposedError(this.#options.adapterId);
    }
    this.#process = process;
    return process;
  }

  #route(process: LongLivedProcess | undefined, line: string): void {
    const read = readExternalLine(line);
    switch (read.kind) {
      case 'message': {
        const entry = this.#sessions.get(read.message.session_id);
        if (entry && entry.process === process) entry.sink.message(read.message);
        return;
      }
      case 'unknown': {
        const entry = this.#sessions.get(read.sessionId);
        if (entry && entry.process === process) entry.sink.unknown(read.type, read.value);
        return;
      }
      case 'text':
        this.#broadcast(process, { type: 'log', source: 'stdout', line: read.line });
        return;
      case 'malformed': {
        const draft: EventDraft = {
          type: 'error',
          code: 'malformed_record',
          message: `external adapter: ${read.reason}: ${line.slice(0, 200)}`,
          recoverable: true,
        };
        const entry = read.sessionId === undefined ? undefined : this.#sessions.get(read.sessionId);
        if (entry && entry.process === process) entry.sink.broadcast(draft);
        else this.#broadcast(process, draft);
        return;
      }
    }
  }

  #broadcast(process: LongLivedProcess | undefined, draft: EventDraft): void {
    for (const entry of this.#sessions.values()) if (entry.process === process) entry.sink.broadcast(draft);
  }
}

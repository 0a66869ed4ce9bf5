import type { ExitInfo, NativeRecord, Translator, TranslatorState } from '../adapter/index.ts';
import { LineDecoder } from '../decode/line-decoder.ts';
import { type ParsedRecord, parseRecord } from '../decode/parse-record.ts';
import { stripVt } from '../decode/strip-vt.ts';
import type { EventDraft } from '../events/index.ts';
import { logDraft } from '../events/log-draft.ts';
import { StderrTail } from './stderr-tail.ts';
import { translatorFailure } from './translator-failure.ts';

export interface RecordPipelineOptions<S extends TranslatorState = TranslatorState> {
  translator: Translator<S>;
  protocol: 'json-lines' | 'text';
  /** Output comes from a terminal: VT sequences are stripped from each line. */
  pty?: boolean;
  debug: boolean;
  /** Receives each draft, with the native record in debug mode. */
  emit: (draft: EventDraft, raw?: unknown) => void;
  request?: import('../adapter/index.ts').RunRequest;
  /** Names the translator in the error a throwing `translate` becomes (the adapter's id). */
  name?: string;
  /** The translator's clock (`TranslatorInit.clock`). */
  clock?: () => number;
  /** Sees each decoded stdout record after its translation (a controller that answers the program). */
  onRecord?: (record: NativeRecord) => void;
}

/**
 * Bytes to events: splits stdout and stderr into lines, parses records by protocol, and
 * runs the adapter's translator. Malformed records and non-JSON lines become `error` and
 * `log` events; nothing here throws. Shared by live runs and `agent-mux replay`, and by every
 * transport: records that arrive already framed (SSE messages, see `readSse`) enter at `pushRecord`.
 */
export class RecordPipeline<S extends TranslatorState = TranslatorState> {
  readonly state: S;
  readonly stderrTail = new StderrTail();
  // The options the per-line path reads, copied out once (the path runs for every stdout line).
  readonly #translator: Translator<S>;
  readonly #name: string;
  readonly #emit: (draft: EventDraft, raw?: unknown) => void;
  readonly #json: boolean;
  readonly #debug: boolean;
  readonly #onRecord: ((record: NativeRecord) => void) | undefined;
  readonly #stdout: LineDecoder;
  readonly #stderr: LineDecoder;

  constructor(options: RecordPipelineOptions<S>) {
    const { translator, emit } = options;
    this.#translator = translator;
    this.#name = options.name ?? 'adapter';
    this.#emit = emit;
    this.#json = options.protocol === 'json-lines';
    this.#debug = options.debug;
    this.#onRecord = options.onRecord;
    this.state = translator.init({ debug: options.debug, request: options.request, clock: options.clock });
    this.#stdout = new LineDecoder({
      onLine: options.pty ? (line) => this.#onPtyLine(line) : (line) => this.#onStdoutLine(line),
      onOverflow: (dropped) =>
        emit({
          type: 'error',
          code: 'line_too_long',
          message: `dropped a stdout line of ${dropped} bytes (over the line limit)`,
          recoverable: true,
        }),
    });
    this.#stderr = new LineDecoder({
      onLine: (line) => {
        this.stderrTail.push(line);
        if (!translator.stderr) return this.#emit(logDraft('stderr', line));
        this.#emitAll(this.#guard(() => translator.stderr?.(line, this.state)));
      },
      onOverflow: () => undefined,
    });
  }

  pushStdout(chunk: Uint8Array | string): void {
    this.#stdout.push(chunk);
  }

  pushStderr(chunk: Uint8Array | string): void {
    this.#stderr.push(chunk);
  }

  /** Flushes unterminated last lines. */
  end(): void {
    this.#stdout.end();
    this.#stderr.end();
  }

  /** Lets the translator add its last events once the program has exited. */
  finish(exit: ExitInfo): void {
    this.#emitAll(this.#guard(() => this.#translator.finish?.(exit, this.state)));
  }

  /**
   * The one guard around translation: a translator that throws costs one recoverable `internal`
   * error, never the run (translators do not catch for themselves).
   */
  #guard(translate: () => EventDraft[] | undefined): EventDraft[] | undefined {
    try {
      return translate();
    } catch (error) {
      return translatorFailure(this.#name, error);
    }
  }

  #emitAll(drafts: EventDraft[] | undefined, raw?: unknown): void {
    if (!drafts) return;
    const emit = this.#emit;
    for (let i = 0; i < drafts.length; i++) emit(drafts[i]!, raw);
  }

  /** A line from a terminal: its VT sequences go, and a line that was nothing else is skipped. */
  #onPtyLine(raw: string): void {
    const line = stripVt(raw);
    if (line.trim() !== '') this.#onStdoutLine(line);
  }

  #onStdoutLine(line: string): void {
    this.pushRecord(this.#json ? parseRecord(line, 'json-lines') : { kind: 'text', line });
  }

  /**
   * One record that arrived already framed (an SSE message, a JSON-RPC message), or a stdout line
   * once parsed: a malformed one becomes a recoverable `malformed_record` error (`source` names
   * what it was in the message), any other goes through the guarded translator and then to `onRecord`.
   */
  pushRecord(record: ParsedRecord, source = 'line'): void {
    if (record.kind === 'malformed') {
      this.#emit({
        type: 'error',
        code: 'malformed_record',
        message: `unparseable ${source} (${record.error}): ${record.line.slice(0, 200)}`,
        recoverable: true,
      });
      return;
    }
    // Text lines go to the translator too: a CLI that prints plain text where JSON was expected
    // still says something (the Process translator makes them `log` events, CLI translators text).
    // The guard written out here rather than through `#guard`: on the path of every record a
    // closure costs (V8 stops inlining it once translators are small; bench adapter-translation).
    let drafts: EventDraft[];
    try {
      drafts = this.#translator.translate(record, this.state);
    } catch (error) {
      drafts = translatorFailure(this.#name, error);
    }
    if (drafts.length !== 0) {
      this.#emitAll(drafts, this.#debug ? (record.kind === 'json' ? record.value : record.line) : undefined);
    }
    this.#onRecord?.(record);
  }
}

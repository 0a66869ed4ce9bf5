import type { ExitInfo, NativeRecord, Translator, TranslatorState } from '../adapter/index.ts';
import { LineDecoder } from '../decode/line-decoder.ts';
import { parseRecord } from '../decode/parse-record.ts';
import { stripVt } from '../decode/strip-vt.ts';
import type { EventDraft } from '../events/index.ts';
import { logDraft } from '../events/log-draft.ts';
import { StderrTail } from './stderr-tail.ts';

export interface RecordPipelineOptions {
  translator: Translator;
  protocol: 'json-lines' | 'text';
  /** Output comes from a terminal: VT sequences are stripped from each line. */
  pty?: boolean;
  debug: boolean;
  /** Receives each draft, with the native record in debug mode. */
  emit: (draft: EventDraft, raw?: unknown) => void;
  request?: import('../adapter/index.ts').RunRequest;
  /** Sees each decoded stdout record after its translation (a controller that answers the program). */
  onRecord?: (record: NativeRecord) => void;
}

/**
 * Bytes to events: splits stdout and stderr into lines, parses records by protocol, and
 * runs the adapter's translator. Malformed records and non-JSON lines become `error` and
 * `log` events; nothing here throws. Shared by live runs and `agent-mux replay`.
 */
export class RecordPipeline {
  readonly state: TranslatorState;
  readonly stderrTail = new StderrTail();
  readonly #options: RecordPipelineOptions;
  readonly #stdout: LineDecoder;
  readonly #stderr: LineDecoder;

  constructor(options: RecordPipelineOptions) {
    this.#options = options;
    const { translator, emit } = options;
    this.state = translator.init({ debug: options.debug, request: options.request });
    this.#stdout = new LineDecoder({
      onLine: (line) => this.#onStdoutLine(line),
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
        this.#emitAll(translator.stderr ? translator.stderr(line, this.state) : [logDraft('stderr', line)]);
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
    this.#emitAll(this.#options.translator.finish?.(exit, this.state));
  }

  #emitAll(drafts: EventDraft[] | undefined, raw?: unknown): void {
    if (drafts) for (const draft of drafts) this.#options.emit(draft, raw);
  }

  #onStdoutLine(raw: string): void {
    const { pty, protocol, translator, emit, debug } = this.#options;
    const line = pty ? stripVt(raw) : raw;
    if (pty && line.trim() === '') return;
    const record = parseRecord(line, protocol);
    if (record.kind === 'malformed') {
      emit({
        type: 'error',
        code: 'malformed_record',
        message: `unparseable line (${record.error}): ${line.slice(0, 200)}`,
        recoverable: true,
      });
    } else {
      // Text lines go to the translator too: a CLI that prints plain text where JSON was expected
      // still says something (the Process translator makes them `log` events, CLI translators text).
      this.#emitAll(
        translator.translate(record, this.state),
        debug ? (record.kind === 'json' ? record.value : line) : undefined,
      );
      this.#options.onRecord?.(record);
    }
  }
}

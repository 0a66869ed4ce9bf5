/** The lines and groups of the Action's workflow log, and the agent's message gathered until it ends. */
import { formatClock, truncate } from '../github/report/markdown.ts';
import type { WorkflowLogSink } from './workflow-log.ts';

const MAX_LINE_CHARS = 500;
/** The longest group title (a tool call's target is cut to it too). */
export const MAX_TITLE_CHARS = 160;

/**
 * Writes to a {@link WorkflowLogSink}: every line and title redacted, kept on one line (so nothing
 * the agent says can start a workflow command) and stamped with the time since the run's first
 * event; at most one group open. The agent's streamed message is held and written as one line
 * when it ends or before the next line.
 */
export class WorkflowLogWriter {
  readonly #sink: WorkflowLogSink;
  readonly #redact: (text: string) => string;
  #startedAt: number | undefined;
  #grouped = false;
  #message = '';
  #messageAt = 0;

  constructor(sink: WorkflowLogSink, redact: (text: string) => string) {
    this.#sink = sink;
    this.#redact = redact;
  }

  /** An event's time: the first one is when the run started, which the stamps count from. */
  seen(at: number): void {
    this.#startedAt ??= at;
  }

  /** Writes the message held, then `text` stamped `at`. */
  line(at: number, text: string): void {
    this.#flush();
    this.#write(at, text);
  }

  /** Ends the open group (after the message held) and opens one titled `title`. */
  group(at: number, title: string): void {
    this.#flush();
    if (this.#grouped) this.#sink.endGroup();
    this.#sink.startGroup(`${this.#stamp(at)} ${this.#clean(title, MAX_TITLE_CHARS)}`);
    this.#grouped = true;
  }

  /** Writes the message held and ends the open group. */
  endGroup(): void {
    this.#flush();
    if (this.#grouped) this.#sink.endGroup();
    this.#grouped = false;
  }

  /** A piece of the agent's message (kept up to the longest line), stamped with the time of its first piece. */
  appendText(at: number, delta: string): void {
    if (this.#message === '') this.#messageAt = at;
    if (this.#message.length < MAX_LINE_CHARS) this.#message += delta;
  }

  /** The agent's message ended: writes it, or `text` (its whole text) when no piece of it was streamed. */
  stopMessage(at: number, text: string | undefined): void {
    if (this.#message === '' && text) {
      this.#message = text;
      this.#messageAt = at;
    }
    this.#flush();
  }

  #flush(): void {
    if (this.#message.trim() === '') {
      this.#message = '';
      return;
    }
    this.#write(this.#messageAt, `agent: ${this.#message}`);
    this.#message = '';
  }

  #write(at: number, text: string): void {
    this.#sink.info(`${this.#stamp(at)} ${this.#clean(text, MAX_LINE_CHARS)}`);
  }

  #clean(text: string, max: number): string {
    return truncate(this.#redact(text).replace(/\s+/g, ' ').trim(), max);
  }

  #stamp(at: number): string {
    return `[${formatClock(at - (this.#startedAt ?? at))}]`;
  }
}

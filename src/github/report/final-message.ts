import type { AgentEvent } from '../../core/events/index.ts';

/** Characters of a message kept from its start (the answer shown on GitHub is at most this). */
const HEAD_CHARS = 8000;
/** Characters of a message kept from its end (the turn record's summary is at most this). */
const TAIL_CHARS = 4000;

/** A message's text as it streams: its first HEAD_CHARS and its last TAIL_CHARS characters, exactly. */
class BoundedText {
  #head = '';
  #tail = '';

  add(text: string): void {
    const room = HEAD_CHARS - this.#head.length;
    if (room > 0) {
      this.#head += text.slice(0, room);
      text = text.slice(room);
    }
    if (text !== '') this.#tail = (this.#tail + text).slice(-TAIL_CHARS);
  }

  get isBlank(): boolean {
    return (this.#head + this.#tail).trim() === '';
  }

  head(max: number): string {
    return this.#head.slice(0, max);
  }

  tail(max: number): string {
    return (this.#head + this.#tail).slice(-max);
  }
}

/**
 * The agent's last message of a run, from its normalized events: the last message that had any
 * text, streamed as `text_delta`s or given whole by `message_stop` (a message still streaming
 * when the run ended counts), and the turn's own `turn_end.result`. One tracker for the answer
 * shown on GitHub and for the turn record. Bounded; not redacted (the API that writes it is).
 */
export class FinalMessage {
  #current = new BoundedText();
  #last: BoundedText | undefined;
  #result: string | undefined;

  /** Applies one event; events other than messages and the turn's end are ignored. */
  apply(event: AgentEvent): void {
    if (event.type === 'message_start') {
      this.#keep();
    } else if (event.type === 'text_delta') {
      this.#current.add(event.delta);
    } else if (event.type === 'message_stop') {
      if (event.text?.trim()) {
        this.#current = new BoundedText();
        this.#current.add(event.text);
      }
      this.#keep();
    } else if (event.type === 'turn_end' && event.result?.trim()) {
      this.#result = event.result.trim().slice(-TAIL_CHARS);
    }
  }

  /** The last message's text, trimmed: its first 8,000 characters. Undefined when the agent said nothing. */
  get text(): string | undefined {
    const message = this.#message();
    const text = message?.head(HEAD_CHARS).trim();
    return text ? text : undefined;
  }

  /**
   * What the turn record keeps: the turn's result when the agent gave one, else its last message;
   * the last 4,000 characters.
   */
  get summary(): string | undefined {
    if (this.#result !== undefined) return this.#result;
    const text = this.#message()?.tail(TAIL_CHARS).trim();
    return text ? text : undefined;
  }

  #message(): BoundedText | undefined {
    return this.#current.isBlank ? this.#last : this.#current;
  }

  #keep(): void {
    if (!this.#current.isBlank) this.#last = this.#current;
    this.#current = new BoundedText();
  }
}

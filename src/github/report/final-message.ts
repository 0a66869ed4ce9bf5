import type { AgentEvent } from '../../core/events/index.ts';

/** The longest final message kept (the reply shows less). */
const MAX_CHARS = 8000;

/**
 * The agent's last message, from its normalized events: the text of the last message that had any,
 * streamed as `text_delta`s or given whole by `message_stop`. Bounded; not redacted (the API that
 * writes it is).
 */
export class FinalMessage {
  #current = '';
  #last = '';

  /** Applies one event; events other than messages are ignored. */
  apply(event: AgentEvent): void {
    if (event.type === 'message_start') {
      this.#keep();
      this.#current = '';
    } else if (event.type === 'text_delta') {
      if (this.#current.length < MAX_CHARS) this.#current += event.delta.slice(0, MAX_CHARS);
    } else if (event.type === 'message_stop') {
      if (event.text?.trim()) this.#current = event.text.slice(0, MAX_CHARS);
      this.#keep();
      this.#current = '';
    }
  }

  /** The last message's text, trimmed; undefined when the agent said nothing. */
  get text(): string | undefined {
    const text = (this.#current.trim() ? this.#current : this.#last).trim();
    return text === '' ? undefined : text.slice(0, MAX_CHARS);
  }

  #keep(): void {
    if (this.#current.trim()) this.#last = this.#current;
  }
}

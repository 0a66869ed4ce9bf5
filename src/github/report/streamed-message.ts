/**
 * The agent's message being streamed, kept as one log line: deltas are joined (up to `maxChars`),
 * and a `message_stop` text stands in for deltas that never came (after deltas it repeats them).
 */
export class StreamedMessage {
  /** The text so far; empty when no message is open. */
  text = '';
  /** When the message's first text came. */
  at = 0;
  /** True once the current message's text came as deltas. */
  #streamed = false;

  /** The longest text kept (a delta may overshoot it once). */
  readonly maxChars: number;

  constructor(maxChars: number) {
    this.maxChars = maxChars;
  }

  /** Adds a text delta that came at `at`. */
  delta(at: number, delta: string): void {
    if (this.text === '') this.at = at;
    if (this.text.length < this.maxChars) this.text += delta.slice(0, this.maxChars * 2);
    if (this.text.trim() === '') this.text = '';
    else this.#streamed = true;
  }

  /** A message ended with `text` at `at`: the text is taken only when no delta came. */
  stop(at: number, text: string | undefined): void {
    if (this.#streamed || !text?.trim()) return;
    this.text = text.slice(0, this.maxChars * 2);
    this.at = at;
  }

  /** Empties the message and returns what it held (empty when nothing); `newMessage` also forgets that deltas came. */
  take(newMessage = false): string {
    const text = this.text;
    this.text = '';
    if (newMessage) this.#streamed = false;
    return text;
  }
}

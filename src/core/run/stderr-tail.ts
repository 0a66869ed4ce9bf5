/** Keeps the last `maxBytes` of a stream's text, for crash reports. */
export class StderrTail {
  readonly #maxChars: number;
  #text = '';

  constructor(maxChars = 8192) {
    this.#maxChars = maxChars;
  }

  push(line: string): void {
    const next = this.#text.length === 0 ? line : `${this.#text}\n${line}`;
    this.#text = next.length > this.#maxChars ? next.slice(next.length - this.#maxChars) : next;
  }

  toString(): string {
    return this.#text;
  }
}

import type { Redactor } from './redactor.ts';

/**
 * Redacts text that arrives in pieces (an agent's `text_delta`s, a log written chunk by chunk):
 * a secret split across two pieces is caught because the last `maxSecretMatchLength - 1`
 * characters are held back until the next piece (or `end`) shows how they continue. What `push`
 * returns is final: it is never part of a secret that a later piece completes.
 */
export class StreamRedactor {
  readonly #redactor: Redactor;
  #held = '';

  constructor(redactor: Redactor) {
    this.#redactor = redactor;
  }

  /** Characters held back so far (raw; never publish them). */
  get heldLength(): number {
    return this.#held.length;
  }

  /** Adds a piece; returns the redacted text that is safe to release now (possibly empty). */
  push(piece: string): string {
    const keep = Math.max(0, this.#redactor.maxSecretMatchLength - 1);
    const [released, held] = this.#redactor.redactHead(this.#held + piece, keep);
    this.#held = held;
    return released;
  }

  /** Releases what is held back, redacted; the stream starts afresh. */
  end(): string {
    const rest = this.#held === '' ? '' : this.#redactor.redactString(this.#held);
    this.#held = '';
    return rest;
  }
}

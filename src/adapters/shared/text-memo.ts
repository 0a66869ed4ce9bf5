/**
 * Values worked out from texts, remembered by text, for the few texts a long run repeats (the same
 * error messages, over and over). A text is found by its length and then compared, not hashed:
 * hashing reads the whole of each text fresh from `JSON.parse` (a hash is kept per string object,
 * and every record brings new ones), while a comparison with a text of another length ends at once
 * and one of the same length is a memory comparison (issue 18: hashing error messages was the
 * largest single cost of Codex's and Gemini's translation).
 *
 * Bounded: at most `perLength` texts of one length are kept (later ones are not remembered), and all
 * is forgotten once `lengths` lengths are held.
 */
export class TextMemo<T> {
  readonly #byLength = new Map<number, { text: string; value: T }[]>();
  readonly #lengths: number;
  readonly #perLength: number;

  constructor(lengths = 64, perLength = 4) {
    if (!Number.isSafeInteger(lengths) || lengths < 1 || !Number.isSafeInteger(perLength) || perLength < 1) {
      throw new RangeError(`lengths and perLength must be positive integers, got ${lengths} and ${perLength}`);
    }
    this.#lengths = lengths;
    this.#perLength = perLength;
  }

  /** The value remembered for `text`, or undefined. */
  get(text: string): T | undefined {
    const same = this.#byLength.get(text.length);
    if (same === undefined) return undefined;
    for (let i = 0; i < same.length; i++) {
      const entry = same[i]!;
      if (entry.text === text) return entry.value;
    }
    return undefined;
  }

  /** Remembers `value` for `text` (a text not yet remembered: call after a `get` that missed). */
  set(text: string, value: T): void {
    let same = this.#byLength.get(text.length);
    if (same === undefined) {
      if (this.#byLength.size >= this.#lengths) this.#byLength.clear();
      same = [];
      this.#byLength.set(text.length, same);
    }
    if (same.length < this.#perLength) same.push({ text, value });
  }

  /** Texts remembered now. */
  get size(): number {
    let n = 0;
    for (const same of this.#byLength.values()) n += same.length;
    return n;
  }
}

/**
 * The ids a translator saw lately, to ignore a record that repeats one (a second `item.completed`
 * for an item). Bounded: ids are kept in two generations of at most `generation` each, and the
 * older generation is dropped when the newer one fills, so a run of any length holds at most
 * `2 × generation` ids and each look-up is in a small table (issue 18: one set of every id of a
 * long run grew without end and made every look-up a cache miss). An id repeated after more than
 * `generation` newer ones is not recognised; agents repeat a record right after the first one.
 */
export class RecentIds {
  readonly #generation: number;
  #current = new Set<string>();
  #previous = new Set<string>();

  constructor(generation = 256) {
    if (!Number.isSafeInteger(generation) || generation < 1) {
      throw new RangeError(`generation must be a positive integer, got ${generation}`);
    }
    this.#generation = generation;
  }

  has(id: string): boolean {
    return this.#current.has(id) || (this.#previous.size !== 0 && this.#previous.has(id));
  }

  add(id: string): void {
    if (this.#current.size >= this.#generation) {
      this.#previous = this.#current;
      this.#current = new Set();
    }
    this.#current.add(id);
  }

  /** Ids held now (at most twice the generation). */
  get size(): number {
    return this.#current.size + this.#previous.size;
  }
}

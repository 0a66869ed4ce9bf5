/**
 * Ids that only increase, also past ids seeded from outside: one counter can be shared by several
 * in-memory repositories so that ids stay unique across them, as GitHub's are.
 */
export class IdCounter {
  #last: number;

  /** `start`: the id before the first one given. */
  constructor(start = 0) {
    this.#last = start;
  }

  /** A fresh id, greater than every id given or reserved so far. */
  next(): number {
    this.#last += 1;
    return this.#last;
  }

  /** Makes later ids greater than a seeded one; returns it. */
  reserve(id: number): number {
    this.#last = Math.max(this.#last, id);
    return id;
  }
}

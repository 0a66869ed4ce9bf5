/** GitHub's limit for a check run's `summary` and `text`. */
export const CHECK_RUN_TEXT_LIMIT = 65_535;

/** Room kept for the `… N earlier lines dropped` marker line. */
const MARKER_ROOM = 48;

/** The marker shown above the kept lines once older ones were dropped. */
export const droppedMarker = (count: number): string =>
  `… ${count.toLocaleString('en-US')} earlier line${count === 1 ? '' : 's'} dropped`;

/**
 * The newest log lines whose rendering stays within a character budget. Adding a line is O(1)
 * amortised: the oldest lines are dropped as new ones come, and nothing is re-joined until `render`.
 */
export class RollingLog {
  /** The most characters `render()` returns (marker included). */
  readonly limit: number;
  readonly #budget: number;
  #lines: string[] = [];
  #head = 0;
  /** Characters of the kept lines, one newline each included (the last one is not rendered). */
  #chars = 0;
  #dropped = 0;

  /** @param limit the most characters `render()` returns; default 65,535 (a check run's `text`). */
  constructor(limit = CHECK_RUN_TEXT_LIMIT) {
    if (limit < MARKER_ROOM * 2) throw new RangeError(`a rolling log needs a limit of at least ${MARKER_ROOM * 2}`);
    this.limit = limit;
    this.#budget = limit - MARKER_ROOM;
  }

  /** How many lines were dropped so far. */
  get dropped(): number {
    return this.#dropped;
  }

  /** How many lines are kept. */
  get size(): number {
    return this.#lines.length - this.#head;
  }

  /** The newest line, if any. */
  get last(): string | undefined {
    return this.size > 0 ? this.#lines[this.#lines.length - 1] : undefined;
  }

  /** The kept lines, oldest first (a copy). */
  get lines(): string[] {
    return this.#lines.slice(this.#head);
  }

  /** Adds a line (newlines inside are kept as is); one longer than the budget is cut. */
  push(line: string): void {
    const kept = line.length > this.#budget ? `${line.slice(0, this.#budget - 1)}…` : line;
    this.#lines.push(kept);
    this.#chars += kept.length + 1;
    while (this.#chars - 1 > this.#budget) this.#dropOldest();
  }

  /** The kept lines joined by newlines, under the marker when lines were dropped; at most `limit` characters. */
  render(limit = this.limit): string {
    if (limit < MARKER_ROOM) return '';
    const budget = Math.min(this.#budget, limit - MARKER_ROOM);
    let start = this.#head;
    let chars = this.#chars;
    let dropped = this.#dropped;
    while (chars - 1 > budget && start < this.#lines.length - 1) {
      chars -= this.#lines[start]!.length + 1;
      start++;
      dropped++;
    }
    const lines = this.#lines.slice(start);
    if (lines.length > 0 && chars - 1 > budget) {
      const only = lines[0]!;
      lines[0] = budget > 1 ? `${only.slice(0, budget - 1)}…` : '';
    }
    const body = lines.join('\n');
    return dropped > 0 ? `${droppedMarker(dropped)}\n${body}` : body;
  }

  #dropOldest(): void {
    this.#chars -= this.#lines[this.#head]!.length + 1;
    this.#head++;
    this.#dropped++;
    if (this.#head > 1024 && this.#head * 2 > this.#lines.length) {
      this.#lines = this.#lines.slice(this.#head);
      this.#head = 0;
    }
  }
}

/** What every benchmark file exports as `benchmark`. */
export interface Benchmark {
  name: string;
  /** One line: what is measured against what. */
  title: string;
  /** Prints its own readable block through `log` and returns the numbers the summary needs. */
  run(log: (line: string) => void): Promise<BenchReport>;
}

export interface Target {
  label: string;
  value: number;
  op: '>=' | '<=';
  limit: number;
  unit: string;
  /** Digits after the point when printing value and limit. */
  digits?: number;
}

export interface BenchReport {
  /** Checked targets: the run fails when one is missed. */
  targets: Target[];
  /** Key numbers for the summary (not checked). */
  facts: string[];
  /** Anything suspicious the benchmark noticed (not a failure by itself). */
  flags: string[];
}

export const passes = (target: Target): boolean =>
  target.op === '>=' ? target.value >= target.limit : target.value <= target.limit;

export function median(values: readonly number[]): number {
  return percentile(values, 50);
}

/** Nearest-rank percentile (p in 0..100) of an unsorted list. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank - 1))]!;
}

/** 1234567 → "1,234,567". */
export const int = (n: number): string => Math.round(n).toLocaleString('en-US');
export const fixed = (n: number, digits = 2): string => n.toFixed(digits);
export const mib = (bytes: number): string => `${(bytes / 2 ** 20).toFixed(1)} MiB`;
export const ms = (n: number): string => (n < 1 ? `${(n * 1000).toFixed(0)} µs` : `${n.toFixed(2)} ms`);

/** Runs `fn` and returns its result with the wall time in milliseconds. */
export async function timed<T>(fn: () => T | Promise<T>): Promise<{ value: T; ms: number }> {
  const start = performance.now();
  const value = await fn();
  return { value, ms: performance.now() - start };
}

/** Collects garbage when node runs with `--expose-gc` (the runner starts every benchmark so). */
export function collectGarbage(): void {
  (globalThis as { gc?: () => void }).gc?.();
}

/**
 * Samples resident memory on a timer and on demand (`sample()`, call it from hot loops: a busy
 * event loop delays timers). `growth` is the maximum seen minus the value at `start`.
 */
export class RssSampler {
  readonly before: number;
  #max: number;
  readonly #timer: NodeJS.Timeout;

  constructor(intervalMs = 10) {
    collectGarbage();
    this.before = process.memoryUsage.rss();
    this.#max = this.before;
    this.#timer = setInterval(() => this.sample(), intervalMs);
  }

  sample(): void {
    const rss = process.memoryUsage.rss();
    if (rss > this.#max) this.#max = rss;
  }

  stop(): { before: number; max: number; growth: number } {
    clearInterval(this.#timer);
    this.sample();
    return { before: this.before, max: this.#max, growth: this.#max - this.before };
  }
}

/** Path of a fixture program in test/fixtures/bin. */
export const fixtureBin = (name: string): string => new URL(`../test/fixtures/bin/${name}`, import.meta.url).pathname;

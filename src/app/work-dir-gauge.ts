import { directorySize } from './directory-size.ts';

/** Options of `createWorkDirGauge`. */
export interface WorkDirGaugeOptions {
  /** How long a measured size is reused. Default 5000 ms. */
  ttlMs?: number;
  now?: () => number;
  /** Default `directorySize`. */
  measure?: (dir: string) => Promise<number>;
}

/** The bytes a directory holds, measured at most once per `ttlMs` for all the callers together. */
export type WorkDirGauge = () => Promise<number>;

/**
 * The work dir's size as the workers of one process see it before each claim: one walk of the tree
 * shared by every worker that asks while it runs, and its result reused for `ttlMs`. (Each idle
 * worker used to walk every clone in the work dir four times a second: with 100 workers and 100 runs
 * that was most of the app's CPU.) A failed walk is not kept. The bound it guards
 * (`AGENT_MUX_MAX_WORKSPACE_MB`) may so be passed by the clones started within `ttlMs`.
 */
export function createWorkDirGauge(dir: string, options: WorkDirGaugeOptions = {}): WorkDirGauge {
  const ttlMs = options.ttlMs ?? 5000;
  const now = options.now ?? Date.now;
  const measure = options.measure ?? directorySize;
  let last: { at: number; bytes: number } | undefined;
  let walking: Promise<number> | undefined;
  return () => {
    if (last !== undefined && now() - last.at < ttlMs) return Promise.resolve(last.bytes);
    if (walking !== undefined) return walking;
    const started = now();
    const walk = measure(dir).then(
      (bytes) => {
        last = { at: started, bytes };
        walking = undefined;
        return bytes;
      },
      (error: unknown) => {
        walking = undefined;
        throw error;
      },
    );
    walking = walk;
    return walk;
  };
}

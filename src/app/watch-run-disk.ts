import { RunLimitError } from '../core/errors/run-limit-error.ts';
import { directorySize } from './directory-size.ts';

export interface RunDiskWatch {
  stop(): void;
}

/**
 * Measures a run's directories (its clone and its HOME) every `intervalMs`, in allocated blocks
 * (a sparse file takes what it really takes), and aborts the run with a `RunLimitError` once they
 * hold more than `capBytes` together: one run cannot fill the host's disk for every installation.
 * The cap holds to within what the agent writes in one interval; the fence's `/tmp` has its own size.
 */
export function watchRunDisk(options: {
  dirs: readonly string[];
  capBytes: number;
  intervalMs?: number;
  abort: AbortController;
  log?: (line: string) => void;
}): RunDiskWatch {
  let busy = false;
  const timer = setInterval(() => {
    if (busy || options.abort.signal.aborted) return;
    busy = true;
    Promise.all(options.dirs.map((dir) => directorySize(dir)))
      .then((sizes) => {
        const bytes = sizes.reduce((sum, n) => sum + n, 0);
        if (bytes <= options.capBytes || options.abort.signal.aborted) return;
        const mib = (n: number) => Math.round(n / (1024 * 1024));
        const message = `the run's files took ${mib(bytes)} MiB of disk, more than its ${mib(options.capBytes)} MiB (AGENT_MUX_MAX_RUN_MB)`;
        options.log?.(message);
        options.abort.abort(new RunLimitError(message));
      })
      .catch((error: unknown) => options.log?.(`measuring the run's disk use failed: ${(error as Error).message}`))
      .finally(() => {
        busy = false;
      });
  }, options.intervalMs ?? 5000);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}

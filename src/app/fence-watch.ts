import { mkdir } from 'node:fs/promises';
import { type FenceProbe, probeFence } from '../core/sandbox/index.ts';

/** Whether the agents' fence works on this host, probed again while it does not. */
export interface FenceWatch {
  /** The last probe, made again when it failed more than `retryMs` ago. Never throws. */
  check(): Promise<FenceProbe>;
}

export interface FenceWatchOptions {
  /** Where the probe runs (the app's work dir, created when missing). */
  workDir: string;
  /** The fenced agents' network (`AppSettings.fenceNetwork`), which the default probe sets up too. Default `own`. */
  network?: 'own' | 'host';
  /** The probe. Default: `true` inside the file-system fence (`probeFence`). */
  probe?: (workDir: string) => Promise<FenceProbe>;
  /** How long a failed probe stands before the next one. Default 30 000 ms. */
  retryMs?: number;
  now?: () => number;
  /** Called with the first probe and with every probe whose outcome differs from the one before. */
  onChange(probe: FenceProbe): void;
}

const sameOutcome = (a: FenceProbe, b: FenceProbe) =>
  a.ok === b.ok && (a.ok || b.ok || a.message === (b as { message: string }).message);

/**
 * The fence's state for a process's workers: a working fence is probed once; a failing one again
 * every `retryMs`, so that runs start by themselves once the operator fixes the host (installs
 * bubblewrap, allows user namespaces), with no restart. Concurrent checks share one probe.
 */
export function createFenceWatch(options: FenceWatchOptions): FenceWatch {
  const now = options.now ?? Date.now;
  const retryMs = options.retryMs ?? 30_000;
  const probe =
    options.probe ??
    (async (dir: string) => {
      await mkdir(dir, { recursive: true });
      return probeFence({ kind: 'filesystem', network: options.network ?? 'own' }, dir);
    });
  let last: { probe: FenceProbe; at: number } | undefined;
  let running: Promise<FenceProbe> | undefined;
  return {
    check() {
      if (last && (last.probe.ok || now() - last.at < retryMs)) return Promise.resolve(last.probe);
      running ??= probe(options.workDir)
        .catch((error: unknown): FenceProbe => ({ ok: false, message: (error as Error).message }))
        .then((result) => {
          const changed = last === undefined || !sameOutcome(last.probe, result);
          last = { probe: result, at: now() };
          running = undefined;
          if (changed) options.onChange(result);
          return result;
        });
      return running;
    },
  };
}

/** What the app says when its fence does not work: the reason and what its operator must do. */
export function unfencedReason(probe: Extract<FenceProbe, { ok: false }>): string {
  return (
    `agents cannot be started on this host: the fence does not work (${probe.message}). ` +
    'Install bubblewrap (apt-get install bubblewrap) and allow unprivileged user namespaces ' +
    '(in Docker: run with the seccomp profile next to the Dockerfile, docs/app.md "Fence"), ' +
    'or set AGENT_MUX_FENCE=off to run agents unfenced'
  );
}

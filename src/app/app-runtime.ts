import type { FenceProbe } from '../core/sandbox/index.ts';
import { LONGEST_CONVERSATION_DAYS } from '../github/conversation/conversation-state.ts';
import type { AppSettings } from './app-settings.ts';
import type { DispatchDeps, DispatchResult } from './dispatch-deps.ts';
import { createDispatchLoop } from './dispatch-loop.ts';
import { createFenceWatch, type FenceWatch, type FenceWatchOptions, unfencedReason } from './fence-watch.ts';
import { type RecoveredRun, recoverRuns } from './recover-runs.ts';
import { createRepoReadCache } from './repo-read-cache.ts';
import { newWorkerId, type WorkerDeps, type WorkResult, workOnce } from './run-worker.ts';
import { createRuntimeLoops } from './runtime-loops.ts';
import type { RunStore } from './store/run-store.ts';
import { testCrashPoint } from './test-crash-point.ts';
import { createUnfencedTeller, type UnfencedTeller } from './unfenced-teller.ts';
import { createWorkDirGauge } from './work-dir-gauge.ts';

const DAY_MS = 24 * 60 * 60 * 1000;

/** Options of `createAppRuntime`: the worker's and dispatcher's dependencies, and loop pacing. */
export interface AppRuntimeOptions extends Omit<WorkerDeps, 'track'> {
  store: RunStore;
  settings: WorkerDeps['settings'] & Pick<AppSettings, 'workers'>;
  /** Idle wait of the dispatcher and workers between polls. Default 250 ms. */
  idleMs?: number;
  /** How often expired leases are looked for. Default: the lease duration. */
  recoverEveryMs?: number;
  /** Retries of a run whose worker died. Default 1. */
  retries?: number;
  /** The dispatcher's `quiet`: the app's `WebhookTraffic.quiet` (a burst of webhooks is acknowledged first). */
  quiet?: DispatchDeps['quiet'];
  /** The fence probe (default: `true` inside the file-system fence), and how long a failure stands. */
  fenceProbe?: FenceWatchOptions['probe'];
  fenceRetryMs?: number;
  /** Told when the fence starts or stops working (the app's readiness and error log). Default: `log`. */
  onFence?: (probe: FenceProbe) => void;
}

/** The app's background work: one dispatcher, `workers` workers, periodic recovery. */
export interface AppRuntime {
  /** Dispatches every recorded event not yet read; returns what each led to. */
  dispatchPending(): Promise<DispatchResult[]>;
  /** One worker turn (see `workOnce`). */
  workOnce(workerId?: string): Promise<WorkResult>;
  /** Takes over runs whose lease expired (see `recoverRuns`). */
  recover(): Promise<RecoveredRun[]>;
  /** Whether the fence works (the workers' shared watch; undefined when `fence` is off). */
  checkFence(): Promise<FenceProbe | undefined>;
  /** Starts the loops (recovery first). */
  start(): void;
  /** Stops the loops; runs in flight are aborted (concluded `cancelled`) and awaited. */
  stop(): Promise<void>;
}

/** Builds the background loops over a store; nothing runs until `start`. */
export function createAppRuntime(options: AppRuntimeOptions): AppRuntime {
  const { store, log } = options;
  const idleMs = options.idleMs ?? 250;
  const inFlight = new Map<string, AbortController>();
  const fenceRetryMs = options.fenceRetryMs ?? 30_000;
  const fence = watchFence(options, fenceRetryMs);
  // Queued runs are told on GitHub why they wait, at most once per failed probe's interval.
  const tell = createUnfencedTeller({ store, access: options.access, log }, fenceRetryMs);
  const crashPoint = testCrashPoint();
  const workerDeps: WorkerDeps = {
    workDirBytes: createWorkDirGauge(options.settings.workDir),
    fence,
    ...(crashPoint ? { afterPush: () => crashPoint('after-push') } : {}),
    ...options,
    track(runId, abort) {
      inFlight.set(runId, abort);
      return () => inFlight.delete(runId);
    },
  };
  const dispatchDeps: DispatchDeps = {
    repoReads: createRepoReadCache(),
    checkpoint: crashPoint,
    ...(options.settings.installationDaily === undefined
      ? {}
      : { installationDaily: options.settings.installationDaily }),
    ...options,
  };
  const dispatcher = createDispatchLoop(dispatchDeps, { leaseMs: options.settings.leaseMs });
  const loops = createRuntimeLoops(log);

  const runtime: AppRuntime = {
    dispatchPending: () => dispatcher.pending(),
    workOnce: (workerId = newWorkerId(0)) => workOnce(workerDeps, workerId),
    recover: () => recoverRuns({ store, access: options.access, log, retries: options.retries }),
    checkFence: async () => (options.settings.fence === 'off' ? undefined : fence.check()),
    start() {
      loops.open();
      loops.add(
        'recovery',
        async () => {
          await runtime.recover();
          // Sessions no repository's `conversations.expireDays` can continue any more.
          await store.forgetConversations(Date.now() - LONGEST_CONVERSATION_DAYS * DAY_MS);
          return false;
        },
        options.recoverEveryMs ?? options.settings.leaseMs,
      );
      loops.add('dispatcher', () => dispatcher.step(), idleMs);
      for (let index = 0; index < options.settings.workers; index++) {
        const workerId = newWorkerId(index);
        loops.add(`worker ${index}`, () => workerTurn(runtime, workerId, tell), idleMs);
      }
    },
    async stop() {
      loops.halt();
      for (const abort of inFlight.values()) abort.abort('the app was stopped');
      await loops.settled();
      await dispatcher.drain();
    },
  };
  return runtime;
}

/** The workers' fence watch; its changes go to `onFence`, by default to the log. */
function watchFence(options: AppRuntimeOptions, retryMs: number): FenceWatch {
  return createFenceWatch({
    workDir: options.settings.workDir,
    network: options.settings.fenceNetwork ?? 'own',
    ...(options.fenceProbe ? { probe: options.fenceProbe } : {}),
    retryMs,
    onChange:
      options.onFence ??
      ((probe) => options.log(probe.ok ? 'agent-mux: the fence works' : `agent-mux: ${unfencedReason(probe)}`)),
  });
}

/** One turn of a worker loop: busy when it ran a run; a fence that does not work is told to queued runs. */
async function workerTurn(runtime: AppRuntime, workerId: string, tell: UnfencedTeller): Promise<boolean> {
  const result = await runtime.workOnce(workerId);
  if (result.kind === 'unfenced') tell({ ok: false, message: result.message });
  return result.kind === 'ran';
}

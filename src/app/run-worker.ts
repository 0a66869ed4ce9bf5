import { randomUUID } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { errorText } from '../core/errors/error-text.ts';
import type { AdapterRegistry } from '../core/registry/adapter-registry.ts';
import type { FenceOptions } from '../core/sandbox/index.ts';
import type { TurnConversations } from '../github/conversation/run-turn.ts';
import type { GitHubApi } from '../github/github-api.ts';
import { runMarker } from '../github/report/render-tracking-comment.ts';
import { steeredEarlier } from '../github/steering/steered-earlier.ts';
import type { GitHubDeps } from '../github/use-cases/decide-trigger.ts';
import { executeRun, type RunOutcome } from '../github/use-cases/execute-run.ts';
import type { AppSettings } from './app-settings.ts';
import { appSpendLimits } from './app-spend-limits.ts';
import { type ApprovalBridge, bridgeApprovals } from './bridge-approvals.ts';
import { cloneWorkspace, removeWorkspace } from './clone-workspace.ts';
import { directorySize } from './directory-size.ts';
import { createFenceWatch, type FenceWatch, unfencedReason } from './fence-watch.ts';
import { finishRun } from './finish-run.ts';
import { type HeldLease, holdLease } from './held-lease.ts';
import type { InstallationAccess } from './installation-access.ts';
import { stateOf } from './store/run-states.ts';
import type { Lease, RunState, RunStore, StoredRun } from './store/run-store.ts';
import { type RunDiskWatch, watchRunDisk } from './watch-run-disk.ts';
import type { WorkDirGauge } from './work-dir-gauge.ts';

/** What a worker needs. */
/** Time a stopped agent gets at each step of its shutdown in the app (stop request, SIGTERM, SIGKILL). */
const APP_AGENT_GRACE_MS = 2000;

export interface WorkerDeps {
  store: RunStore;
  settings: Pick<
    AppSettings,
    | 'workDir'
    | 'maxWorkspaceBytes'
    | 'leaseMs'
    | 'gitBaseUrl'
    | 'perRepo'
    | 'perAdapter'
    | 'defaultPerAdapter'
    | 'perInstallation'
    | 'storeQuotaBytes'
    | 'installationDaily'
    | 'maxRunBytes'
    | 'fence'
    | 'fenceReadOnly'
    | 'fenceNetwork'
    | 'agentEnvExtra'
  >;
  access: InstallationAccess;
  /** A fresh adapter registry per run. */
  registry: () => AdapterRegistry;
  selfLogins: readonly string[];
  /** The commit author of the agent's changes. */
  author: { name: string; email: string };
  /** The agent's environment and which of its variables are secret. */
  agentEnv: Record<string, string | undefined>;
  secretEnv: readonly string[];
  /** The app's own secrets (`hostSecrets`): redacted from every run, though no agent is given them. */
  hostSecrets?: readonly string[];
  log: (line: string) => void;
  /** How often the run's `cancelRequested` is read. Default 1000 ms. */
  cancelPollMs?: number;
  /** How often a run's disk use is measured against `maxRunBytes` (default 5000 ms). */
  diskPollMs?: number;
  /** How often answers to approvals are read. Default 300 ms. */
  answerPollMs?: number;
  /** The waits between attempts to save a finished run while the database is away. Default `FINISH_RETRY_DELAYS_MS`. */
  finishRetryDelaysMs?: readonly number[];
  /** Called with each in-flight run's abort controller, so that a shutdown can stop it. */
  track?: (runId: string, abort: AbortController) => () => void;
  /** Where each adapter keeps its sessions (default: the adapter's own `sessionFiles`): what a follow-up turn can resume. */
  sessionFiles?: TurnConversations['sessionFiles'];
  /**
   * Whether the fence works, shared by the process's workers (`createFenceWatch`). Default: one per
   * work dir in this process, logging when it changes.
   */
  fence?: FenceWatch;
  /** The work dir's size, shared by the process's workers (`createWorkDirGauge`). Default: measured on each call. */
  workDirBytes?: WorkDirGauge;
  /** Called when a run has pushed its commit: the crash tests' hook (`testCrashPoint`). */
  afterPush?: () => void;
}

/** What `workOnce` did. */
export type WorkResult =
  | { kind: 'idle' }
  | { kind: 'disk_full'; bytes: number }
  /** The fence (bubblewrap) does not work here: no run is started until it does or `AGENT_MUX_FENCE=off`. */
  | { kind: 'unfenced'; message: string }
  | { kind: 'ran'; runId: string; state: RunState; conclusion: string; reason?: string; stale: boolean };

/**
 * One turn of a worker: claims the oldest run that may start (unless the work dir is over its
 * bound: the run then stays queued), keeps the lease alive (renewed every third of it; a
 * `StaleLeaseError` aborts the run, another worker owns it now), clones the repository fresh with
 * the installation token, runs `executeRun` with the lease's epoch, and finishes the run
 * in the store with the conclusion. The clone is removed afterwards, whatever happened.
 */
export async function workOnce(deps: WorkerDeps, workerId: string): Promise<WorkResult> {
  const { store, settings } = deps;
  const bytes = await (deps.workDirBytes?.() ?? directorySize(settings.workDir));
  if (bytes > settings.maxWorkspaceBytes) return { kind: 'disk_full', bytes };
  if (settings.fence !== 'off') {
    const probe = await (
      deps.fence ?? defaultFenceWatch(settings.workDir, settings.fenceNetwork ?? 'own', deps.log)
    ).check();
    if (!probe.ok) return { kind: 'unfenced', message: probe.message };
  }
  const claimed = await store.claim(workerId, settings.leaseMs, {
    perRepo: settings.perRepo,
    perAdapter: settings.perAdapter,
    defaultPerAdapter: settings.defaultPerAdapter,
    ...(settings.perInstallation !== undefined ? { perInstallation: settings.perInstallation } : {}),
  });
  if (claimed === undefined) return { kind: 'idle' };
  return runClaimed(deps, claimed.run, claimed.lease);
}

const defaultWatches = new Map<string, FenceWatch>();

/** The fence watch of a work dir when the deps bring none (one per process and work dir). */
function defaultFenceWatch(workDir: string, network: 'own' | 'host', log: (line: string) => void): FenceWatch {
  const key = `${network}:${workDir}`;
  let watch = defaultWatches.get(key);
  if (!watch) {
    watch = createFenceWatch({
      workDir,
      network,
      onChange: (probe) => log(probe.ok ? 'agent-mux: the fence works' : `agent-mux: ${unfencedReason(probe)}`),
    });
    defaultWatches.set(key, watch);
  }
  return watch;
}

/**
 * Runs a claimed run: its lease held, the repository cloned (with a disk watch when a cap is set),
 * `executeRun`, then everything it held released and its outcome finished in the store.
 */
async function runClaimed(deps: WorkerDeps, run: StoredRun, first: Lease): Promise<WorkResult> {
  const { store, settings, log } = deps;
  const abort = new AbortController();
  const untrack = deps.track?.(run.id, abort) ?? (() => {});
  const held = holdLease({
    store,
    run,
    first,
    leaseMs: settings.leaseMs,
    cancelPollMs: deps.cancelPollMs ?? 1000,
    abort,
    log,
  });
  let workspace: string | undefined;
  let disk: RunDiskWatch | undefined;
  let bridge: ApprovalBridge | undefined;
  let outcome: RunFinish;
  // The installation's write budget: this run's live updates share it with its other runs in flight.
  const writes = run.installationId === undefined ? undefined : deps.access.writes?.(run.installationId);
  const releaseWrites = writes?.run() ?? (() => {});
  try {
    if (run.installationId === undefined) throw new Error('the run has no installation');
    const api = await deps.access.api(run.installationId);
    const steered = await steeredEarlier(api, run.job, deps.selfLogins).catch((error: unknown) => {
      log(`run ${run.id}: could not read whether an earlier run took its request: ${errorText(error)}`);
      return undefined;
    });
    if (steered !== undefined) {
      // Delivered to the run that was in progress when it was written (steering): nothing is left to do.
      const reason = `the request was delivered to the run in progress when it was written (${steered})`;
      log(`run ${run.id}: ${reason}`);
      throw new AlreadyTaken(reason);
    }
    const token = await deps.access.token(run.installationId);
    try {
      workspace = await cloneWorkspace({
        workDir: settings.workDir,
        runId: run.id,
        attempt: run.attempts,
        repo: run.job.repo,
        gitBaseUrl: settings.gitBaseUrl,
        token,
      });
      disk = watchDisk(deps, run, workspace, abort);
    } catch (error) {
      const reason = `could not clone ${run.repoKey}: ${errorText(error)}`;
      await tellIssue(api, run, reason, log);
      throw new CloneFailed(reason);
    }
    const result = await executeClaimed(deps, run, {
      api,
      token,
      workspace,
      held,
      signal: abort.signal,
      writes,
      onBridge: (b) => {
        bridge = b;
      },
    });
    outcome = { state: stateOf(result.conclusion), conclusion: result.conclusion, reason: result.reason };
  } catch (error) {
    outcome =
      error instanceof AlreadyTaken
        ? { state: 'succeeded', conclusion: 'skipped', reason: error.message }
        : { state: 'failed', conclusion: 'failure', reason: errorText(error) };
    if (!(error instanceof CloneFailed) && !(error instanceof AlreadyTaken)) {
      log(`run ${run.id} failed: ${errorText(error)}`);
    }
  } finally {
    releaseWrites();
    held.stop();
    disk?.stop();
    untrack();
    await bridge?.close();
    if (workspace !== undefined) {
      await removeWorkspace(workspace);
      await rm(homeOf(workspace), { recursive: true, force: true });
    }
  }

  // Tried again while the database is away (a success already on GitHub must not be left `running`).
  if ((await finishRun(store, held.current(), outcome, log, deps.finishRetryDelaysMs)).stale) {
    held.markStale();
    log(`run ${run.id}: not finished here, another worker took it over`);
  }
  return { kind: 'ran', runId: run.id, ...outcome, stale: held.stale };
}

/** How a run ended, as the store keeps it. */
type RunFinish = { state: RunState; conclusion: string; reason?: string };

/** The clone failed: the run fails with this reason (already said on the issue). */
class CloneFailed extends Error {}

/** The run's request was delivered to an earlier run while it ran: this one ends without running. */
class AlreadyTaken extends Error {}

/** The run's disk use held to `maxRunBytes` (its clone and its HOME), when a cap is set. */
function watchDisk(
  deps: WorkerDeps,
  run: StoredRun,
  workspace: string,
  abort: AbortController,
): RunDiskWatch | undefined {
  if (deps.settings.maxRunBytes === undefined) return undefined;
  return watchRunDisk({
    dirs: [workspace, homeOf(workspace)],
    capBytes: deps.settings.maxRunBytes,
    abort,
    intervalMs: deps.diskPollMs,
    log: (line) => deps.log(`run ${run.id}: ${line}`),
  });
}

/** `executeRun` for a claimed run in its clone: the store keeps its conversation, lease and approvals. */
async function executeClaimed(
  deps: WorkerDeps,
  run: StoredRun,
  context: {
    api: GitHubApi;
    token: string;
    workspace: string;
    held: HeldLease;
    signal: AbortSignal;
    writes: ReturnType<NonNullable<InstallationAccess['writes']>> | undefined;
    onBridge: (bridge: ApprovalBridge) => void;
  },
): Promise<RunOutcome> {
  const { store, settings, log } = deps;
  const { api, token, workspace, held, writes } = context;
  const registry = deps.registry();
  const githubDeps: GitHubDeps = {
    api,
    selfLogins: deps.selfLogins,
    builtinAgents: registry.ids(),
    spend: appSpendLimits(store, settings, run.installationId),
    log,
  };
  const lease = held.current();
  return executeRun({
    deps: githubDeps,
    job: run.job,
    registry,
    workspace,
    git: { token, author: deps.author },
    env: deps.agentEnv,
    // A follow-up mention resumes the agent's session, kept in the store: any worker of any
    // replica can take the next turn, though the run's clone and HOME are gone.
    conversations: {
      store: {
        load: (key) => store.loadConversation(key),
        // One installation's conversations keep at most its quota: it can crowd out only its own.
        save: (key, c) =>
          store.saveConversation(key, c, {
            installationId: run.installationId,
            ...(settings.storeQuotaBytes !== undefined ? { quotaBytes: settings.storeQuotaBytes } : {}),
          }),
      },
      ...(deps.sessionFiles ? { sessionFiles: deps.sessionFiles } : {}),
    },
    secrets: [token, ...(deps.hostSecrets ?? [])],
    secretEnv: deps.secretEnv,
    isolateEnv: { extra: settings.agentEnvExtra },
    fence: fenceFor(settings, workspace),
    signal: context.signal,
    // A stopped or cancelled agent gets 2 s between the stop request, SIGTERM and SIGKILL (core
    // default 5 s): an app stopped by its container has 10 s in all, and after the agent it still
    // concludes the check run and comment through the write throttle.
    graceMs: APP_AGENT_GRACE_MS,
    ...(writes ? { liveWrites: writes } : {}),
    runId: run.id,
    // A retry after a crash publishes the commit its predecessor pushed instead of running the agent again.
    retried: run.attempts > 0,
    ...(deps.afterPush ? { afterPush: deps.afterPush } : {}),
    leaseToken: lease.leaseToken,
    leaseEpoch: lease.leaseEpoch,
    superseded: () => held.superseded(),
    onStarted: (started) => {
      store
        .update(held.current(), { checkRunId: started.checkRunId, commentId: started.commentId })
        .catch((error: unknown) => log(`run ${run.id}: ${errorText(error)}`));
    },
    attachApprovals: (channel, started) => {
      const bridge = bridgeApprovals({
        store,
        lease: () => held.current(),
        runId: run.id,
        issueKey: run.issueKey,
        channel,
        api,
        repo: run.job.repo,
        checkRunId: started.checkRunId,
        ...(started.steering ? { steering: started.steering } : {}),
        intervalMs: deps.answerPollMs,
        since: run.createdAt,
        log,
      });
      context.onBridge(bridge);
      return () => bridge.detach();
    },
  });
}

/** The run's own HOME beside its workspace (`~/.claude` and the like are per run). */
function homeOf(workspace: string): string {
  return `${workspace}.home`;
}

/** The file-system fence of a run: its workspace and its own HOME writable, the system read-only. */
function fenceFor(settings: WorkerDeps['settings'], workspace: string): FenceOptions | undefined {
  if (settings.fence === 'off') return undefined;
  return {
    kind: 'filesystem',
    home: homeOf(workspace),
    readOnly: settings.fenceReadOnly,
    network: settings.fenceNetwork ?? 'own',
  };
}

async function tellIssue(api: GitHubApi, run: StoredRun, reason: string, log: (line: string) => void): Promise<void> {
  if (run.job.number === undefined) return;
  try {
    await api.createComment(
      run.job.repo,
      run.job.number,
      `${runMarker(run.id)}\n**agent-mux** could not start **${run.job.agentName}**: ${reason}`,
    );
  } catch (error) {
    log(`run ${run.id}: ${errorText(error)}`);
  }
}

/** A worker id unique to this process and loop. */
export function newWorkerId(index: number): string {
  return `worker-${process.pid}-${index}-${randomUUID().slice(0, 8)}`;
}

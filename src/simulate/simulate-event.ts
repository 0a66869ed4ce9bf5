import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import type { AgentEvent } from '../core/events/index.ts';
import type { AdapterRegistry } from '../core/registry/adapter-registry.ts';
import type { GitHubApprovalChannel } from '../github/approvals/github-approval-channel.ts';
import { REPO_CONFIG_PATH } from '../github/config/load-repo-config.ts';
import type { RepoRole } from '../github/github-api.ts';
import type { ActedTrigger } from '../github/use-cases/act-on-trigger.ts';
import type { GitHubDeps } from '../github/use-cases/decide-trigger.ts';
import { executeRun } from '../github/use-cases/execute-run.ts';
import { handleTrigger } from '../github/use-cases/handle-trigger.ts';
import type { RunJob } from '../github/use-cases/run-job.ts';
import { createMemoryGitHub } from './memory-github.ts';
import { actAs, payloadRepo, seedFromPayload } from './seed-from-payload.ts';
import { collectReceived, type SimulationReport } from './simulation-report.ts';
import { SimulationSetupError } from './simulation-setup-error.ts';

/** The approver that answers approvals in a simulation (an admin of the stand-in repository). */
export const SIMULATED_APPROVER = 'simulated-approver';

export interface SimulateEventOptions {
  /** The webhook event name (`issue_comment`, `issues`, …). */
  eventName: string;
  /** The webhook payload, as GitHub delivers it. */
  payload: unknown;
  /** The git checkout to simulate on; it is never changed (a temporary bare clone stands in for GitHub). */
  repoPath: string;
  /** Makes the registry of adapters for the run (called once for the agent names, once for the run). */
  registry: () => AdapterRegistry;
  /** Answer every approval as {@link SIMULATED_APPROVER} (`all`) or deny it (`none`). */
  approve: 'all' | 'none';
  /** Act as this login instead of the payload's sender. */
  as?: string;
  /** The actor's role in the stand-in repository. Default `write`. */
  asRole?: RepoRole;
  /** Text served as `.github/agent-mux.yml` on the default branch (an uncommitted change to try). */
  repoConfigText?: string;
  /** The default branch; default: the checkout's `origin/HEAD` branch when it exists locally, else its current branch. */
  defaultBranch?: string;
  /** The login agent-mux posts as. Default `agent-mux[bot]`. */
  selfLogin?: string;
  /** Keep the temporary bare repository (its path is in the report). */
  keep?: boolean;
  /** The agent's environment. */
  env: Record<string, string | undefined>;
  log?: (line: string) => void;
  /** Each normalized event of the run, as it happens. */
  onEvent?: (event: AgentEvent) => void;
  signal?: AbortSignal;
}

/**
 * Runs the whole GitHub pipeline (`handleTrigger` → `executeRun`) for one webhook payload against an
 * in-process GitHub backed by a temporary bare clone of `repoPath`, and reports what GitHub would have
 * received. Approvals are answered by a simulated approver (or denied). The checkout is never touched;
 * the temporary directories are removed at the end (the bare repository is kept with `keep`).
 *
 * @throws SimulationSetupError when `repoPath` is no git checkout or the payload names no repository.
 */
export async function simulateEvent(options: SimulateEventOptions): Promise<SimulationReport> {
  const repo = payloadRepo(options.payload);
  if (repo === undefined) {
    throw new SimulationSetupError('the payload names no repository (repository.owner.login and repository.name)');
  }
  const checkout = await checkoutOf(options.repoPath);
  const payload = options.as === undefined ? options.payload : actAs(options.eventName, options.payload, options.as);

  const root = await mkdtemp(join(tmpdir(), 'agent-mux-simulate-'));
  const bare = join(root, 'origin.git');
  const workspace = join(root, 'workspace');
  let keep = false;
  try {
    const defaultBranch = await cloneCheckout({ checkout, root, bare, workspace }, options.defaultBranch);
    const selfLogin = options.selfLogin ?? 'agent-mux[bot]';
    const actor = actorOf(payload);
    const gh = createMemoryGitHub({
      repo,
      defaultBranch,
      bareRepo: bare,
      selfLogin,
      roles: { ...(actor ? { [actor]: options.asRole ?? 'write' } : {}), [SIMULATED_APPROVER]: 'admin' },
      files: options.repoConfigText === undefined ? undefined : { [REPO_CONFIG_PATH]: options.repoConfigText },
    });
    const notes = await seedFromPayload(gh.state, gh.git, options.eventName, payload);
    const seededComments = new Set(gh.state.commentsById.keys());
    const seededReviewComments = new Set(gh.state.reviewComments.keys());
    const seededIssues = new Set(gh.state.issues.keys());

    const deps: GitHubDeps = {
      api: gh.api,
      selfLogins: [selfLogin],
      builtinAgents: options.registry().ids(),
      log: options.log,
    };
    const decision = await handleTrigger(deps, { eventName: options.eventName, payload });
    const report: SimulationReport = {
      event: options.eventName,
      repository: `${repo.owner}/${repo.repo}`,
      actor,
      defaultBranch,
      decision: decisionReport(decision),
      notes,
      comments: [],
      reviewReplies: [],
      checkRuns: [],
      reactions: [],
      pullRequests: [],
    };
    if (decision.kind === 'run') await reportRun(report, { deps, job: decision.job, workspace, bare }, options);
    Object.assign(report, collectReceived(gh.state, seededComments, seededIssues, seededReviewComments));
    if (options.keep) {
      keep = true;
      report.bareRepo = bare;
    }
    return report;
  } finally {
    if (keep) await rm(workspace, { recursive: true, force: true });
    else await rm(root, { recursive: true, force: true });
  }
}

/** The top folder of the git checkout at `repoPath`. */
async function checkoutOf(repoPath: string): Promise<string> {
  const top = await execa('git', ['rev-parse', '--show-toplevel'], { cwd: repoPath, reject: false }).catch(
    (error: unknown) => ({ exitCode: 1, stdout: '', stderr: String(error) }),
  );
  if (top.exitCode !== 0) throw new SimulationSetupError(`${repoPath} is not a git checkout`);
  return top.stdout.trim();
}

/**
 * Clones the checkout into `bare` (GitHub's git server) and that into `workspace` (the run's
 * checkout), both under `root`; returns the default branch, which the checkout must have.
 */
async function cloneCheckout(
  paths: { checkout: string; root: string; bare: string; workspace: string },
  defaultBranch: string | undefined,
): Promise<string> {
  const { checkout, root, bare, workspace } = paths;
  await git(['clone', '--bare', '--quiet', checkout, bare], root);
  const branch = defaultBranch ?? (await defaultBranchOf(checkout, bare));
  if ((await git(['rev-parse', '--verify', '--quiet', `refs/heads/${branch}`], bare, false)) === undefined) {
    throw new SimulationSetupError(`the checkout has no branch ${branch}`);
  }
  await git(['clone', '--quiet', bare, workspace], root);
  return branch;
}

/** The report's decision: its kind, and why nothing ran or what runs. */
function decisionReport(decision: ActedTrigger): SimulationReport['decision'] {
  const report: SimulationReport['decision'] = { kind: decision.kind };
  if (decision.kind === 'ignore' || decision.kind === 'refused') report.reason = decision.reason;
  if (decision.kind === 'ignore' && decision.malformed) report.malformed = true;
  if (decision.kind === 'config_error') report.reason = decision.message;
  if (decision.kind === 'cancel') report.reason = 'a cancel: no run is in flight in a simulation';
  if (decision.kind === 'answer') report.reason = 'an answer to an approval: none is pending in a simulation';
  if (decision.kind === 'run') {
    report.agent = decision.job.agentName;
    report.instruction = decision.job.instruction;
  }
  return report;
}

/** Runs the job in the workspace and adds its outcome to the report, with the log of the branch it pushed. */
async function reportRun(
  report: SimulationReport,
  run: { deps: GitHubDeps; job: RunJob; workspace: string; bare: string },
  options: SimulateEventOptions,
): Promise<void> {
  const outcome = await executeRun({
    deps: run.deps,
    job: run.job,
    registry: options.registry(),
    workspace: run.workspace,
    git: { author: { name: 'agent-mux', email: 'agent-mux@users.noreply.github.com' } },
    env: options.env,
    secrets: [],
    signal: options.signal,
    onEvent: options.onEvent,
    attachApprovals: (channel) => answerApprovals(channel, options.approve),
  });
  report.run = {
    runId: outcome.runId,
    conclusion: outcome.conclusion,
    ...(outcome.reason === undefined ? {} : { reason: outcome.reason }),
    ...(outcome.branch === undefined ? {} : { branch: outcome.branch }),
    ...(outcome.pullRequestUrl === undefined ? {} : { pullRequestUrl: outcome.pullRequestUrl }),
    changedFiles: outcome.changedFiles.map((f) => f.path),
    approvals: outcome.approvals,
  };
  if (outcome.branch !== undefined) {
    const log = await git(['log', '--stat', '-1', `refs/heads/${outcome.branch}`, '--'], run.bare, false);
    if (log !== undefined) report.branch = { name: outcome.branch, log };
  }
}

/** Answers each approval once as it appears: approved by the simulated approver, or denied. */
function answerApprovals(channel: GitHubApprovalChannel, approve: 'all' | 'none'): () => void {
  const answered = new Set<string>();
  const timer = setInterval(() => {
    for (const pending of channel.pending) {
      if (answered.has(pending.approvalId)) continue;
      answered.add(pending.approvalId);
      void channel.answer({
        approvalId: pending.approvalId,
        decision: approve === 'all' ? 'approve' : 'deny',
        reason: approve === 'all' ? undefined : 'denied in simulation',
        actor: { login: SIMULATED_APPROVER, type: 'User' },
        via: 'comment',
      });
    }
  }, 10);
  return () => clearInterval(timer);
}

function actorOf(payload: unknown): string | undefined {
  const sender = (payload as { sender?: { login?: unknown } } | null)?.sender;
  return typeof sender?.login === 'string' && sender.login !== '' ? sender.login : undefined;
}

async function git(args: string[], cwd: string, strict = true): Promise<string | undefined> {
  const result = await execa('git', args, { cwd, reject: false });
  if (result.exitCode === 0) return result.stdout;
  if (strict) throw new SimulationSetupError(`git ${args[0]} failed: ${result.stderr.trim() || result.exitCode}`);
  return undefined;
}

/** The checkout's `origin/HEAD` branch when it has that branch locally, else the branch its HEAD is on. */
async function defaultBranchOf(checkout: string, bare: string): Promise<string> {
  const remoteHead = await git(['symbolic-ref', '--quiet', '--short', 'refs/remotes/origin/HEAD'], checkout, false);
  const fromRemote = remoteHead?.trim().replace(/^origin\//, '');
  if (fromRemote && (await git(['rev-parse', '--verify', '--quiet', `refs/heads/${fromRemote}`], bare, false))) {
    return fromRemote;
  }
  const head = await git(['symbolic-ref', '--quiet', '--short', 'HEAD'], bare, false);
  if (head?.trim()) return head.trim();
  throw new SimulationSetupError('cannot tell the default branch (detached HEAD): pass --default-branch');
}

import type { Adapter } from '../../core/adapter/index.ts';
import type { AgentEvent } from '../../core/events/index.ts';
import type { AdapterRegistry } from '../../core/registry/adapter-registry.ts';
import type { RunEnd, RunOptions } from '../../core/run/run-options.ts';
import type { GitHubApprovalChannel } from '../approvals/github-approval-channel.ts';
import type { CatchUpOptions } from '../conversation/missed-mentions.ts';
import type { TurnConversations } from '../conversation/run-turn.ts';
import type { ChangedFile } from '../git/collect-changes.ts';
import type { Clock } from '../pacing/clock.ts';
import type { RunConclusion } from '../report/run-lifecycle.ts';
import type { RunProgress } from '../report/run-progress.ts';
import type { RunSteering } from '../steering/run-steering.ts';
import type { GitHubDeps } from './decide-trigger.ts';
import type { RunJob } from './run-job.ts';

/** What `executeRun` needs: the job, the agent's registry, workspace, git and environment, and the front end's hooks. */
export interface ExecuteRunOptions {
  deps: GitHubDeps;
  job: RunJob;
  /** Adapters to run; one registry per run (configurable agents are loaded into it). */
  registry: AdapterRegistry;
  /** The checkout the agent works in (the Action's workspace, or the app's fresh clone). */
  workspace: string;
  git: { remote?: string; token?: string; author: { name: string; email: string } };
  /** The agent's environment (API keys among it). */
  env: Record<string, string | undefined>;
  /** Values that must never appear on GitHub (tokens, keys); the git token is added. */
  secrets: readonly string[];
  /**
   * A redactor the front end already writes through (the Action's workflow log): the run adds its
   * secrets to it and uses it for everything it writes, so both redact the same values. Default: the
   * run's own.
   */
  redactor?: import('../../core/redact/redactor.ts').Redactor;
  /** Names of environment variables whose values are secret. */
  secretEnv?: readonly string[];
  /** The model, over the one the repository config gives the agent (the Action's `model` input). */
  model?: string;
  /**
   * Instructions added to every run's prompt after the request (the Action's `instructions` input):
   * the workflow author's, so trusted, unlike the thread's text.
   */
  instructions?: string;
  /** Give the agent only the allowlisted part of `env` (core `RunOptions.isolateEnv`). */
  isolateEnv?: RunOptions['isolateEnv'];
  /** Start the agent inside this bubblewrap fence (core `RunOptions.fence`). */
  fence?: RunOptions['fence'];
  signal?: AbortSignal;
  /** Time the agent gets between the stop request, SIGTERM and SIGKILL (core default 5000 ms). */
  graceMs?: number;
  clock?: Clock;
  /**
   * The write budget the run shares (the app: its installation's): its live check-run and comment
   * updates wait for it and stretch with the runs in flight. Default: none (the Action, one run).
   */
  liveWrites?: import('../pacing/write-budget.ts').LiveWrites;
  runId?: string;
  leaseToken?: string;
  leaseEpoch?: number;
  /**
   * A later attempt of `runId` (the app's retry after its worker died): when the run's commit is
   * already the tip of its branch (it was pushed, the result never reported), that commit is
   * published and the agent is not run again (`earlierAttemptCommit`). Default: false.
   */
  retried?: boolean;
  /**
   * Asked before the run's conclusion is written: the reason when a later attempt has taken the run
   * over (the app: this worker's lease was taken while the database was away), else undefined. A
   * superseded attempt concludes its check run `neutral` with that reason, as the recovery does, so
   * the run has one final conclusion: its last attempt's. Default: never superseded (the Action).
   */
  superseded?: () => Promise<string | undefined>;
  /** Called once the run's commit is pushed, before its pull request (the app's crash tests). */
  afterPush?: () => void;
  /** A link for the check run's "Details" (the workflow run). */
  detailsUrl?: string;
  /** Overrides of the config's timeouts (the Action's inputs), in ms. */
  timeoutMs?: number;
  approvalTimeoutMs?: number;
  /** Connects the front end's way of delivering answers; returns how to disconnect. */
  attachApprovals?: (
    channel: GitHubApprovalChannel,
    run: { runId: string; checkRunId: number; steering?: RunSteering },
  ) => () => void;
  /**
   * Work of the front end's that the agent needs before it starts (installing its program), run
   * alongside the workspace preparation and the check-run and comment writes. What it resolves to
   * is added to the agent's environment (`env`); `programVersion` is the version of the agent's
   * program it found or installed (the run then checks the minimum against it instead of asking
   * the program). Its failure is the run's failure, reported like any other. It is given the
   * run's adapter, resolved once for the run.
   */
  prepare?: (
    signal: AbortSignal,
    adapter: Adapter,
  ) => Promise<{ env?: Record<string, string | undefined>; programVersion?: string } | undefined>;
  /**
   * Where the agent's session is kept between the turns of a conversation (the Action: the Actions
   * cache; the app: its store): a follow-up mention resumes it. Without it (or for an agent that
   * cannot resume) a follow-up gets a summary of the earlier turns in its prompt.
   */
  conversations?: TurnConversations;
  /**
   * Take up the requests made in the mention's thread since the conversation's last turn that no
   * run took up (`missedMentions`): the Action's workflow `concurrency` keeps one pending run and
   * drops the one it replaces. The app queues every mention as a run of its own and leaves it unset.
   */
  catchUp?: CatchUpOptions;
  /** Receives every normalized event of the agent as it comes (the Action's workflow log). */
  onEvent?: (event: AgentEvent) => void;
  /** Receives the run's own notes (approval asked, files reset, the result), redacted. */
  onNote?: (line: string) => void;
  /** Called once the check run and tracking comment exist (the Action records them for its post step). */
  onStarted?: (run: { runId: string; checkRunId: number; commentId: number | undefined; checkRunUrl: string }) => void;
}

/** What became of a run: its conclusion, the check run and comment, the branch and pull request, the progress. */
export interface RunOutcome {
  runId: string;
  conclusion: RunConclusion;
  /** Why, when not a success. */
  reason?: string;
  end: RunEnd | undefined;
  checkRunId: number;
  /** As GitHub lists it (`checkRunName`): `agent-mux / <agent>`, with ` (turn N)` from the second turn. */
  checkRunName: string;
  checkRunUrl: string;
  commentId: number | undefined;
  branch?: string;
  pullRequestUrl?: string;
  changedFiles: readonly ChangedFile[];
  approvals: readonly { approvalId: string; toolName: string; decision: string; by?: string }[];
  /** Everything the reports showed: steps, tool calls, approvals, tokens, cost, the log. */
  progress: RunProgress;
  /** The agent's last message, redacted (the Action's `final-message` output and job summary). */
  finalMessage?: string;
}

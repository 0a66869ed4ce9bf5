import type { Adapter, RunRequest } from '../adapter/index.ts';
import type { AgentEvent, EventDraft, EventOf, RunTotals } from '../events/index.ts';
import type { ApprovalChannel } from '../tools/approval-channel.ts';
import type { ToolHost } from '../tools/tool-host.ts';

export interface Budget {
  /** Total tokens (input + output) the run may use. */
  tokens?: number;
  usd?: number;
}

/** What a run had spent when it reached its budget. */
export interface BudgetSpent {
  usd: number;
  /** Input and output tokens. */
  tokens: number;
  /** The budget it reached. */
  budget: Budget;
  /** Models whose tokens had no known price (counted as $0): the run is held by tokens. */
  unpriced?: readonly string[];
}

export interface RetryPolicy {
  /** Total attempts including the first. 1 = no retry (the default). */
  attempts: number;
  /** First delay; doubled each attempt. */
  backoffMs: number;
  maxBackoffMs: number;
  /** 0..1: the share of each delay drawn at random. */
  jitter: number;
  /** Which ends are retried. */
  retryOn: readonly ('crashed' | 'timeout' | 'inactivity' | 'failed')[];
}

export interface RunOptions {
  adapter: Adapter;
  request: RunRequest;
  runId?: string;
  taskId?: string;
  leaseToken?: string;
  leaseEpoch?: number;
  /** An MCP server the agent should use instead of the run's own. */
  mcpUrl?: string;
  /**
   * Serve the run's tools over MCP on 127.0.0.1 (with a fresh bearer token) and give the agent its
   * URL: `auto` (default) when the run has tools and the adapter speaks MCP; `on`; `off`.
   */
  mcp?: 'auto' | 'on' | 'off';
  /** Whole-run limit in ms. Default: none. */
  timeoutMs?: number;
  /** Ends the run when the agent prints nothing for this long. Default: none. */
  inactivityTimeoutMs?: number;
  /** Bytes an agent may leave unread on its stdin before the run is stopped as blocked. Default 8 MiB. */
  maxPendingStdinBytes?: number;
  /** Time between the graceful stop request, SIGTERM and SIGKILL. Default 5000. */
  graceMs?: number;
  /**
   * After a terminal event (`complete`, `failed`, a CLI's result record) the agent is done: how long
   * its program (or session) may take to end by itself before the core stops it (graceful stop,
   * then SIGTERM and SIGKILL, each after this long again, at most `graceMs`). The run then ends with
   * the reported outcome. Default 2000.
   */
  terminalGraceMs?: number;
  signal?: AbortSignal;
  /** Run `<program> --version` once per process and warn when it is below the adapter's minimum. Default true. */
  checkVersion?: boolean;
  /**
   * The version of the program this run starts, when the caller knows it (it found or installed
   * it): the minimum is checked against it and no `--version` is run (it would find the program
   * on this process's `PATH`, which need not be the run's).
   */
  programVersion?: string;
  /** Keep `raw` on events and emit `debug` events for unknown records. */
  debug?: boolean;
  /** The clock the adapter's translator reads (tool durations, generated ids). Default `Date.now`. */
  clock?: () => number;
  /** The environment templates and the agent see. Default: `process.env`. */
  env?: Record<string, string | undefined>;
  /**
   * Build the agent's environment (and what `${NAME}` templates see) from an allowlist instead of
   * `env` whole: the base list, the adapter's own keys and their vendor's variables, and `extra`
   * (see `agentEnvironment` in core/env). Default: off (`env` whole, as a local user expects).
   */
  isolateEnv?: { extra?: readonly string[] };
  /** Start the agent's program inside a bubblewrap fence (process adapters and PTY). Default: none. */
  fence?: import('../sandbox/fence-options.ts').FenceOptions;
  /**
   * When the agent's own sandbox fails its probe (`SpawnPlan.sandboxProbe`): `warn` (default) starts
   * the agent with a `sandbox_unavailable` notice; `fail` does not start it, the run fails with the reason.
   */
  sandboxUnavailable?: 'warn' | 'fail';
  /** Names of environment variables whose values are secret; added to the adapter's own. */
  secretEnv?: readonly string[];
  /** Literal secret values to redact. */
  secrets?: readonly string[];
  /**
   * The run's redactor, when its caller already has one (a GitHub run shares it with its reports):
   * the run adds `secrets` and the values of the secret variables to it and redacts its events with
   * it. Default: a redactor of the run's own.
   */
  redactor?: import('../redact/redactor.ts').Redactor;
  costModel?: string;
  /** Prices for cost events; default: the built-in list prices. */
  pricing?: import('../cost/pricing-table.ts').PricingTable;
  budget?: Budget;
  /**
   * Asked when `budget` is spent, with the agent's processes paused (SIGSTOP to its process group:
   * it spends nothing more while it waits): a higher budget resumes them and the run goes on; undefined
   * (or a budget already spent) stops the run `budget_exceeded`. Absent, or for an agent that cannot
   * be paused (a session: remote or in-process), the run stops at once as before.
   */
  onBudgetSpent?: (spent: BudgetSpent, signal: AbortSignal) => Promise<Budget | undefined>;
  /**
   * A lower budget than `budget` that may change while the run runs (what daily limits shared with
   * other runs have left), asked at each cost report with the run's totals; the lower of the two
   * holds, until a raise (`onBudgetSpent`) sets the run's budget outright. Must not throw or block.
   */
  budgetCeiling?: (totals: RunTotals) => Budget | undefined;
  retry?: RetryPolicy;
  /** The run's tools; a function receives the run id and the run's emitter (for approval events). */
  tools?: ToolHost | ((run: { runId: string; emit: (draft: EventDraft) => void }) => ToolHost);
  approvals?: ApprovalChannel;
  /** The permission policy the adapter maps onto the agent's own mechanism (see LaunchContext.policy). */
  policy?: import('../tools/permission-policy.ts').PermissionPolicy;
  /** Called synchronously for every event, in order, before the async iterator sees it. */
  onEvent?: (event: AgentEvent) => void;
  /** Sees the program's raw stdout and stderr before decoding (for recording native streams). */
  onNativeOutput?: (stream: 'stdout' | 'stderr', chunk: Uint8Array | string) => void;
}

export type RunEnd = EventOf<'run_end'>;

export interface RunHandle {
  readonly runId: string;
  /** Every event of the run, ending with exactly one `run_end`. Iterate once. */
  readonly events: AsyncIterable<AgentEvent>;
  /** Settles with the `run_end` event; never rejects. */
  readonly result: Promise<RunEnd>;
  /** Stops the run: graceful stop, SIGTERM to the group, then SIGKILL. */
  abort(reason?: string): void;
  /**
   * The run's lease ran out (another worker may own the task now): the agent is told to shut
   * down (`lease_expired`), stopped if it does not, and the run ends `failed`.
   */
  expireLease(): void;
  /**
   * Gives the running agent a user's message mid-run, where its adapter can (`SpawnPlan.input`):
   * `delivered` when it was written to the agent's input (a `steered` notice follows where the agent
   * took it), else `queued` with why (the agent takes no input while it runs, it has finished its
   * turn, the run is ending): the caller keeps the message for the next turn.
   */
  steer(message: import('./agent-input.ts').SteerMessage): import('./agent-input.ts').SteerOutcome;
}
